public import HTTP1
public import HTTPBasics
public import NetworkRuntime
/// A request as handlers see it: the head and the body, whole or, for a handler that reads it as it
/// arrives (`HTTPResponder.streamsBody(of:)`), as a stream.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request-target as sent.
    public var target: String
    /// The raw path, not percent-decoded, before any `?`.
    public var path: String
    /// The raw query after `?`, or nil.
    public var query: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// The whole body; empty when `bodyStream` carries it.
    public var body: [UInt8]
    /// The body as it arrives from the client, for a handler that asked for it so
    /// (`HTTPResponder.streamsBody(of:)`) when it had not all arrived with the head; nil otherwise.
    /// Read it before the response is returned: the connection takes its bytes back then, and
    /// closes after the response when the body was not read to its end.
    public var bodyStream: HTTPBodyStream?
    /// The address of the client whose connection carried the request; nil when unknown (a
    /// request built in process).
    public var clientAddress: IPAddress?

    public init(
        method: HTTPMethod,
        target: String,
        path: String,
        query: String?,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        clientAddress: IPAddress? = nil
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// A request for `target`, split into path and query the way the parser splits it.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        let path: Substring
        let query: String?
        if let mark = target.utf8.firstIndex(of: ASCII.questionMark) {
            path = target[..<mark]
            query = String(target[target.utf8.index(after: mark)...])
        } else {
            path = target[...]
            query = nil
        }
        self.init(method: method, target: target, path: String(path), query: query, headers: headers, body: body)
    }

    /// The request described by a parsed head, with its body, from the client at `clientAddress`.
    public init(head: RequestHead, body: [UInt8], clientAddress: IPAddress? = nil) {
        self.init(
            method: head.method,
            target: head.target,
            path: head.path,
            query: head.query,
            version: head.version,
            headers: head.headers,
            body: body,
            clientAddress: clientAddress
        )
    }
}
