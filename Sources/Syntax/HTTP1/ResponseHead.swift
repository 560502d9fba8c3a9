public import HTTPBasics
/// A parsed and validated response head, as the client sees it.
public struct ResponseHead: Sendable, Equatable {
    /// How the body of a response is delimited (RFC 9112 §6.3).
    public enum Framing: Sendable, Equatable {
        /// No body: a response to HEAD, a 1xx, 204 or 304, or `Content-Length: 0`.
        case none
        case contentLength(Int)
        case chunked
        /// The body runs until the server closes the connection.
        case untilClose
    }

    public var version: HTTPVersion
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var framing: Framing
    /// Whether the connection may be reused once the body has been read.
    public var keepAlive: Bool
    /// How the body is compressed, from `Content-Encoding`.
    public var contentCoding: ContentCoding

    public init(
        version: HTTPVersion, status: HTTPStatus, headers: HTTPHeaders, framing: Framing, keepAlive: Bool,
        contentCoding: ContentCoding = .identity
    ) {
        self.version = version
        self.status = status
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.contentCoding = contentCoding
    }
}
