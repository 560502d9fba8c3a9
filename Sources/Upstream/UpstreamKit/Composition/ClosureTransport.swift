/// A transport made from a closure: for in-memory upstreams (tests, demos) and for adapting other clients.
public struct ClosureTransport: Transport {
    private let handler: @Sendable (TransportRequest) async throws(UpstreamError) -> Response

    public init(_ handler: @escaping @Sendable (TransportRequest) async throws(UpstreamError) -> Response) {
        self.handler = handler
    }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        try await handler(request)
    }
}
