/// Anything that turns a request into a response: the router, or middleware wrapping another responder.
///
/// Responders answer every request, errors included, so `respond` does not throw.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) async -> HTTPResponse
}
