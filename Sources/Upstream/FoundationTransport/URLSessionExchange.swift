import Foundation
import HTTPBasics
import Synchronization
import UpstreamKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request in flight on a `URLSession`: collects the response and resumes its caller exactly once.
///
/// Whichever comes first, completion, an over-long body or cancellation, takes the continuation out
/// of the lock and resumes it; everyone after finds it gone. Resuming on cancellation without waiting
/// for URLSession keeps callers clear of FoundationNetworking's cancellation deadlock.
final class URLSessionExchange: Sendable {
    private enum State {
        case waiting(cancelled: Bool)
        case running(CheckedContinuation<Result<Response, UpstreamError>, Never>, URLSessionTask)
        case finished
    }

    private struct Collected {
        var status: HTTPStatus?
        var headers = HTTPHeaders()
        var body: [UInt8] = []
    }

    private let state = Mutex(State.waiting(cancelled: false))
    private let collected = Mutex(Collected())
    private let maximumBodyBytes: Int

    init(maximumBodyBytes: Int) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Starts `task` unless the exchange was cancelled before it began.
    func start(_ task: URLSessionTask, continuation: CheckedContinuation<Result<Response, UpstreamError>, Never>) {
        let cancelled = state.withLock { state -> Bool in
            if case .waiting(cancelled: true) = state {
                state = .finished
                return true
            }
            state = .running(continuation, task)
            return false
        }
        if cancelled {
            continuation.resume(returning: .failure(.cancelled))
        } else {
            task.resume()
        }
    }

    func finish(_ result: Result<Response, UpstreamError>) {
        let running = state.withLock { state -> (CheckedContinuation<Result<Response, UpstreamError>, Never>, URLSessionTask)? in
            switch state {
            case .waiting:
                state = .waiting(cancelled: true)
                return nil
            case .running(let continuation, let task):
                state = .finished
                return (continuation, task)
            case .finished:
                return nil
            }
        }
        guard let (continuation, task) = running else { return }
        if case .failure = result { task.cancel() }
        continuation.resume(returning: result)
    }

    func received(_ response: URLResponse) {
        guard let response = response as? HTTPURLResponse else {
            finish(.failure(.invalidResponse(reason: "not an HTTP response")))
            return
        }
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            if name.equalsIgnoringASCIICase("Set-Cookie") {
                for cookie in FoldedSetCookie.split(value) { headers.add(name, cookie) }
            } else {
                headers.add(name, value)
            }
        }
        collected.withLock { collected in
            collected.status = HTTPStatus(code: response.statusCode)
            collected.headers = headers
            collected.body = []
        }
    }

    func received(_ data: Data) {
        let fits = collected.withLock { collected -> Bool in
            guard collected.body.count + data.count <= maximumBodyBytes else { return false }
            collected.body.append(contentsOf: data)
            return true
        }
        if !fits { finish(.failure(.bodyTooLarge(limit: maximumBodyBytes))) }
    }

    func completed(with error: (any Error)?) {
        if let error {
            finish(.failure(Self.upstreamError(for: error)))
            return
        }
        let response = collected.withLock { collected -> Response? in
            guard let status = collected.status else { return nil }
            return Response(status: status, headers: collected.headers, body: collected.body)
        }
        finish(response.map { .success($0) } ?? .failure(.invalidResponse(reason: "no response head")))
    }

    /// Fixed reasons only: URLSession's own descriptions can contain the URL and with it secrets.
    static func upstreamError(for error: any Error) -> UpstreamError {
        guard let error = error as? URLError else { return .connectionFailed(reason: "transport error") }
        switch error.code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .cannotFindHost, .dnsLookupFailed: return .connectionFailed(reason: "host not found")
        case .cannotConnectToHost: return .connectionFailed(reason: "connection refused")
        case .networkConnectionLost: return .connectionFailed(reason: "connection lost")
        case .notConnectedToInternet: return .connectionFailed(reason: "network unreachable")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .connectionFailed(reason: "TLS handshake failed")
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .invalidResponse(reason: "malformed response")
        case .dataLengthExceedsMaximum:
            return .invalidResponse(reason: "response too large")
        default: return .connectionFailed(reason: "transport error \(error.code.rawValue)")
        }
    }
}
