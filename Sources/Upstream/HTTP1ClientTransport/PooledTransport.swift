public import HTTP1Client
import HTTPBasics
public import NetworkRuntime
public import UpstreamKit
/// The transport for `http://` and `https://` upstreams: HTTP1Client's pooled keep-alive
/// `HTTPClient`, which enforces each request's timeout and body limit itself.
///
/// `https` origins need a `TLSContext`; without one they are refused rather than sent in clear text.
public struct PooledTransport: Transport {
    let client: HTTPClient
    let tls: TLSContext?

    /// A transport sending through `client`, whose pool and limits it shares with every other
    /// user of that client, and over TLS with `tls` to `https` origins.
    public init(client: HTTPClient = HTTPClient(), tls: TLSContext? = nil) {
        self.client = client
        self.tls = tls
    }

    /// `HTTPClient` bounds every request by its timeout on the event loop's timers, so
    /// `Upstream` need not race each attempt against a timer task of its own.
    public var enforcesTimeout: Bool { true }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        let clientRequest = try clientRequest(for: request)
        do {
            return Response(
                try await client.send(
                    clientRequest, timeout: request.timeout, maximumResponseBytes: request.maximumResponseBytes,
                    streamingBodiesOver: request.streamsResponse ? TransportRequest.wholeBodyLimit : nil))
        } catch {
            throw Self.upstreamError(error)
        }
    }

    /// Sends `request`, which asks to switch to `protocolName` (`Upgrade`), on a connection of
    /// its own that the pool never sees (`HTTPClient.upgrade`), in clear text for `http` and over
    /// TLS for `https`: the answer, and the connection when the answer is `101`, which the caller
    /// then owns. `request.timeout` bounds the exchange up to the answer's head.
    public func upgrade(_ request: TransportRequest, to protocolName: String) async throws(UpstreamError) -> (Response, SwitchedConnection?) {
        let clientRequest = try clientRequest(for: request)
        do {
            switch try await client.upgrade(
                clientRequest, to: protocolName, timeout: request.timeout, maximumResponseBytes: request.maximumResponseBytes)
            {
            case .switched(let head, let connection): return (Response(head), connection)
            case .answered(let answer): return (Response(answer), nil)
            }
        } catch {
            throw Self.upstreamError(error)
        }
    }

    /// The client's request for `request`: in clear text for `http`, over TLS for `https`;
    /// anything else is refused.
    // Never inlined (nor `upstreamError`): its temporaries would enlarge the async frame of `send`.
    @inline(never)
    private func clientRequest(for request: TransportRequest) throws(UpstreamError) -> HTTPClientRequest {
        var clientRequest = HTTPClientRequest(
            method: request.method,
            host: request.origin.host,
            port: request.origin.port,
            target: request.target,
            headers: request.headers,
            body: request.body ?? [],
            tls: try tls(for: request.origin.scheme),
            acceptsCompression: request.acceptsCompression)
        clientRequest.bodyStream = request.bodyStream
        return clientRequest
    }

    /// nil for `http`, the context for `https`; anything else is refused.
    // The exact spelling first: comparing two small strings is a word comparison.
    private func tls(for scheme: String) throws(UpstreamError) -> TLSContext? {
        if scheme == "http" || scheme.equalsIgnoringASCIICase("http") { return nil }
        guard scheme == "https" || scheme.equalsIgnoringASCIICase("https") else {
            throw .invalidRequest(reason: "the pooled transport serves only http and https origins")
        }
        guard let tls else { throw .invalidRequest(reason: "an https origin needs a TLS context") }
        return tls
    }

    @inline(never)
    private static func upstreamError(_ error: HTTPClientError) -> UpstreamError {
        switch error {
        case .timedOut: .timedOut
        case .connectionFailed(let reason): .connectionFailed(reason: reason)
        case .certificateRejected(let reason): .untrustedCertificate(reason: reason)
        case .connectionClosed: .connectionFailed(reason: "connection closed before the response was complete")
        case .invalidResponse(let reason): .invalidResponse(reason: reason)
        case .bodyTooLarge(let limit): .bodyTooLarge(limit: limit)
        case .undecodableBody(let reason): .undecodableBody(reason: reason)
        case .invalidRequest(let reason): .invalidRequest(reason: reason)
        case .tooManyWaiters: .overloaded
        case .requestBodyFailed(let error): .requestBodyFailed(error)
        case .cancelled: .cancelled
        case .shutDown: .connectionFailed(reason: "client shut down")
        }
    }
}
