public import HTTP1
public import HTTPBasics
/// Anything that turns a request into a response: the router, or middleware wrapping another responder.
///
/// Responders answer every request, errors included, so `respond` does not throw.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// Whether the request with `head`, which has a body, is answered by a handler that reads the
    /// body as it arrives (`HTTPRequest.bodyStream`): then the server's body limit
    /// (`HTTPLimits.maximumBodyBytes`) is the handler's business, and a body that has not all
    /// arrived with the head reaches it as a stream. Otherwise the server reads the whole body
    /// first, refusing one over the limit with 413. By default, false.
    func streamsBody(of head: RequestHead) -> Bool
}

extension HTTPResponder {
    public func streamsBody(of head: RequestHead) -> Bool { false }
}
