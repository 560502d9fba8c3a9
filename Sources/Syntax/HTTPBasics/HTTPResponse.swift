/// An HTTP response: what a server's handlers build and what a client gets back (`HTTPClient`
/// returns one, `Upstream.Response` holds one): the status, the header fields and the body, whole
/// or streamed.
///
/// A server writes the framing fields (`Content-Length`, `Transfer-Encoding`, `Connection`) and
/// `Date` itself and ignores those set here, but for one case: an answer to HEAD without a body
/// may say in `Content-Length` how long GET's body would be (see HTTP1Server's
/// `ResponseHeadWriter.write`). A client's response carries the fields as the server sent them,
/// but for a body it inflated, which no longer says `Content-Encoding` or `Content-Length`.
///
/// ```swift
/// let events = HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], bodyStream: .writing { writer in
///     try await writer.write(Array("data: ready\n\n".utf8))
/// })
/// ```
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The whole body; empty, and ignored, when `bodyStream` carries it.
    public var body: [UInt8]
    /// The body as it is produced or as it arrives, when it is not held whole.
    ///
    /// A server sends it with `Content-Length` when the stream knows its length, else chunked (to
    /// HTTP/1.0 clients, until the connection closes), each piece written as it arrives; it reads
    /// the stream at the client's pace and cancels it when the client goes away, or for an answer
    /// without a body (HEAD, 204, 304). A client hands an answer's body over as a stream when asked
    /// to (`HTTPClient.send`'s `streamingBodiesOver`); whoever holds the response then reads or
    /// cancels it.
    public var bodyStream: HTTPBodyStream?
    /// What takes the connection over once this answer, a `101 Switching Protocols`, is written
    /// (see `switchingProtocols(headers:then:)`); nil otherwise, and ignored with any other status.
    ///
    /// Only a server acts on it: a client's response never carries one (a client that switches
    /// protocols gets the connection itself, beside the response: `HTTPClient.upgrade`), and a
    /// client ignores one set. It is a reference, so that the responses clients pass around grow by
    /// one word only for what is a server's business.
    public var takeover: ConnectionTakeover?

    /// A response with `status`, `headers` and the whole `body`.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `stream`, sent or read piece by piece.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], bodyStream: HTTPBodyStream) {
        self.status = status
        self.headers = headers
        body = []
        self.bodyStream = bodyStream
    }

    /// A `101 Switching Protocols` answer with `headers` (the new protocol's `Upgrade` field among
    /// them; the server writes `Connection: upgrade`), after which the server reads no further
    /// request from the connection and hands it to `takeover`.
    public static func switchingProtocols(headers: HTTPHeaders, then takeover: ConnectionTakeover) -> HTTPResponse {
        var response = HTTPResponse(status: .switchingProtocols, headers: headers)
        response.takeover = takeover
        return response
    }
}
