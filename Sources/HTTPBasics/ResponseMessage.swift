/// A complete HTTP response as a client sees it: status, header fields and the whole body.
/// `HTTPClient` returns one; `Upstream.Response` holds one with what its transports did.
public struct ResponseMessage: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The whole body.
    public var body: [UInt8]

    /// A message with `status`, `headers` and `body`.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
