public import HTTPBasics
/// A parsed and validated request head: request line, header fields and the framing they imply.
public struct RequestHead: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request-target exactly as sent.
    public var target: String
    /// The path of the target, not percent-decoded, without the query; `/` for an
    /// absolute-form target without a path, `*` for `OPTIONS *` and the whole target (`host:port`)
    /// for a CONNECT in authority-form: only these do not start with `/`.
    public var path: String
    /// The raw query after `?`, or nil when the target has no `?`.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var framing: BodyFraming
    /// Whether the connection may carry another request after this one.
    public var keepAlive: Bool
    /// The client sent `Expect: 100-continue` and waits for `100 Continue` before the body.
    public var expectsContinue: Bool

    public init(
        method: HTTPMethod,
        target: String,
        path: String,
        query: String?,
        version: HTTPVersion,
        headers: HTTPHeaders,
        framing: BodyFraming,
        keepAlive: Bool,
        expectsContinue: Bool
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.expectsContinue = expectsContinue
    }
}
