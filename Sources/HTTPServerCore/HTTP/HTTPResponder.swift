import HTTP1

/// Anything that turns a request into a response: the router, or middleware wrapping another responder.
///
/// Responders answer every request, errors included, so `respond` does not throw.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// Whether the request with `head` is answered by a handler that streams: one that reads a
    /// body as it arrives (`HTTPRequest.bodyStream`), and whose answer may be a long stream or a
    /// protocol switch. Then the server's body limit (`HTTPLimits.maximumBodyBytes`) is the
    /// handler's business, a body that has not all arrived with the head reaches it as a stream,
    /// and the server runs `respond` in a child task, so that the memory its deepest calls took
    /// is given back while the answer streams. Otherwise the server reads the whole body first,
    /// refusing one over the limit with 413. Asked for every request: keep it cheap. By default, false.
    func streamsBody(of head: RequestHead) -> Bool
}

extension HTTPResponder {
    public func streamsBody(of head: RequestHead) -> Bool { false }
}
