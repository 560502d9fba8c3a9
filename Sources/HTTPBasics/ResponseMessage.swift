/// An HTTP response as a client sees it: status, header fields and the body, whole or streamed.
/// `HTTPClient` returns one; `Upstream.Response` holds one with what its transports did.
public struct ResponseMessage: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The whole body, when it was read whole; empty when `bodyStream` carries it.
    public var body: [UInt8]
    /// The body as it arrives, when it is not read whole (see `HTTPClient.send`'s
    /// `streamingBodiesOver`); whoever holds the message reads or cancels it.
    public var bodyStream: HTTPBodyStream?

    /// A message with `status`, `headers` and `body`, or the body `bodyStream` reads.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = [], bodyStream: HTTPBodyStream? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyStream = bodyStream
    }
}
