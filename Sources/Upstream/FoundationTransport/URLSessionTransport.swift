import Foundation
import HTTPBasics
import Synchronization
public import UpstreamKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over `URLSession` for `https` upstreams, hardened for FoundationNetworking on Linux.
///
/// One long-lived ephemeral session per transport (creating and invalidating sessions crashes
/// FoundationNetworking), with no cookie storage and no URL cache: cookies belong to each upstream's
/// `CookieJar`. Redirects are never followed, the body is cut off at `maximumResponseBytes` while it
/// streams in, and callers are resumed exactly once, at once on cancellation. URLSession's own timeout
/// is an idle timer truncated to whole seconds on Linux, so it is set out of the way: wrap this transport
/// in a `TimeoutTransport` (as `Upstream` does) to bound attempts.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let delegate: URLSessionTransportDelegate

    public init(maximumConnectionsPerHost: Int = 6) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
        configuration.timeoutIntervalForRequest = 3600
        configuration.timeoutIntervalForResource = 3600
        delegate = URLSessionTransportDelegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        guard let url = URL(string: request.origin.description + request.target) else {
            throw .invalidRequest(reason: "target is not a valid URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers where !Self.setBySession(field.name) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let exchange = URLSessionExchange(maximumBodyBytes: request.maximumResponseBytes)
        let session = self.session
        let delegate = self.delegate
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: urlRequest)
                delegate.register(exchange, for: task.taskIdentifier)
                exchange.start(task, continuation: continuation)
            }
        } onCancel: {
            exchange.finish(.failure(.cancelled))
        }
        return try result.get()
    }

    /// Framing and connection fields are URLSession's to write; sending ours too would duplicate them.
    private static func setBySession(_ name: String) -> Bool {
        ["Host", "Content-Length", "Connection", "Transfer-Encoding", "Keep-Alive", "Upgrade", "TE"]
            .contains { $0.equalsIgnoringASCIICase(name) }
    }
}
