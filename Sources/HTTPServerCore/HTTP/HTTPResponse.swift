public import HTTPBasics
/// A response as handlers build it. Framing headers (`Content-Length`, `Transfer-Encoding`,
/// `Connection`) and `Date` are the server's business and are ignored if set here, but for one
/// case: an answer to HEAD without a body may say in `Content-Length` how long GET's body would
/// be (see `ResponseHeadWriter.write`).
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    /// The whole body; ignored when `bodyStream` is set.
    public var body: [UInt8]
    /// A body sent as it is produced: with `Content-Length` when the stream knows its length,
    /// else chunked (to HTTP/1.0 clients, until the connection closes), each piece written as it
    /// arrives. The server reads it at the client's pace and cancels it when the client goes away,
    /// or for an answer without a body (HEAD, 204, 304).
    public var bodyStream: HTTPBodyStream?
    /// What takes the connection over once this answer, a `101 Switching Protocols`, is written;
    /// ignored with any other status (see `switchingProtocols(headers:then:)`).
    public var takeover: ConnectionTakeover?

    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `stream`, sent piece by piece as it is read.
    ///
    /// ```swift
    /// let events = HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], bodyStream: .writing { writer in
    ///     try await writer.write(Array("data: ready\n\n".utf8))
    /// })
    /// ```
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), bodyStream: HTTPBodyStream) {
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

    /// A response carrying already encoded JSON, with `Content-Type: application/json`.
    public static func json(_ body: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers, body: body)
        response.headers.set("Content-Type", "application/json")
        return response
    }

    /// An RFC 9457 problem response with `Content-Type: application/problem+json`.
    public static func problem(_ problem: ProblemDetails, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var response = HTTPResponse(status: HTTPStatus(code: problem.status), headers: headers, body: problem.jsonBytes)
        response.headers.set("Content-Type", "application/problem+json")
        return response
    }

    /// A problem response for `status` whose title is the status's reason phrase.
    public static func problem(
        _ status: HTTPStatus,
        detail: String? = nil,
        instance: String? = nil,
        headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        problem(ProblemDetails(status: status, detail: detail, instance: instance), headers: headers)
    }
}
