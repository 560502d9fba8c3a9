import HTTPBasics
import HTTPServerCore
import Upstream

/// The transport for `http://` upstreams: HTTPServerCore's pooled keep-alive `HTTPClient`, which
/// enforces each request's timeout and body limit itself.
///
/// It refuses other schemes instead of sending them in clear text; `https` upstreams go through
/// `URLSessionTransport`.
public struct PooledTransport: Transport {
    let client: HTTPClient

    /// A transport sending through `client`, whose pool and limits it shares with every other
    /// user of that client.
    public init(client: HTTPClient = HTTPClient()) {
        self.client = client
    }

    /// `HTTPClient` bounds every request by its timeout on the event loop's timers, so
    /// `Upstream` need not race each attempt against a timer task of its own.
    public var enforcesTimeout: Bool { true }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        // The exact spelling first: comparing two small strings is a word comparison.
        guard request.origin.scheme == "http" || request.origin.scheme.equalsIgnoringASCIICase("http") else {
            throw .invalidRequest(reason: "the pooled transport serves only http origins")
        }
        let clientRequest = HTTPClientRequest(
            method: request.method,
            host: request.origin.host,
            port: request.origin.port,
            target: request.target,
            headers: request.headers,
            body: request.body ?? [])
        do {
            let response = try await client.send(
                clientRequest, timeout: request.timeout, maximumResponseBytes: request.maximumResponseBytes)
            return Response(status: response.status, headers: response.headers, body: response.body)
        } catch {
            throw Self.upstreamError(error)
        }
    }

    private static func upstreamError(_ error: HTTPClientError) -> UpstreamError {
        switch error {
        case .timedOut: .timedOut
        case .connectionFailed(let reason): .connectionFailed(reason: reason)
        case .certificateRejected(let reason): .untrustedCertificate(reason: reason)
        case .connectionClosed: .connectionFailed(reason: "connection closed before the response was complete")
        case .invalidResponse(let reason): .invalidResponse(reason: reason)
        case .bodyTooLarge(let limit): .bodyTooLarge(limit: limit)
        case .invalidRequest(let reason): .invalidRequest(reason: reason)
        case .tooManyWaiters: .overloaded
        case .cancelled: .cancelled
        case .shutDown: .connectionFailed(reason: "client shut down")
        }
    }
}
