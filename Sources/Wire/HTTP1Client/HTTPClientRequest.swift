public import HTTPBasics
public import NetworkRuntime
/// A request for `HTTPClient`: where it goes and what it carries.
///
/// The host is the URL's: it goes into `Host` and, over TLS, into SNI and certificate verification.
/// The client adds `Host`, `Accept-Encoding` when `acceptsCompression` and, when there is a body,
/// `Content-Length` (or, for a `bodyStream` of unknown length, `Transfer-Encoding: chunked`); `headers` must not carry them (they are ignored), nor `Transfer-Encoding` or
/// `Connection`, which belong to the connection.
public struct HTTPClientRequest: Sendable {
    public var method: HTTPMethod
    /// A host name or an IPv4 or IPv6 literal; names are resolved off the event loops and the
    /// answer refreshed every 30 seconds (see docs/NETWORK.md).
    public var host: String
    public var port: Int
    /// The TLS settings for an `https` origin, or nil for plain HTTP. Connections are pooled per
    /// context, so share one context between the requests to an origin.
    public var tls: TLSContext?
    /// The request target as sent: a percent-encoded path and query, `/api/people/1/?format=json`.
    public var target: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// A body sent as it is read, instead of `body`: with `Content-Length` when the stream knows
    /// its length, else chunked. A request with one is never retried (the stream is read once).
    public var bodyStream: HTTPBodyStream?
    /// Whether to ask for a gzip or deflate body (`Accept-Encoding: gzip, deflate`), which the
    /// client inflates as it arrives, under the same limit as any body, and hands over without
    /// `Content-Encoding` and `Content-Length`. Either way, a body in a coding not asked for fails
    /// with `.undecodableBody`. A request with `Range` asks for none, as Go's client does: a range
    /// of a compressed body cannot be inflated on its own.
    public var acceptsCompression: Bool

    public init(
        method: HTTPMethod = .get,
        host: String,
        port: Int,
        target: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        tls: TLSContext? = nil,
        acceptsCompression: Bool = false
    ) {
        self.method = method
        self.host = host
        self.port = port
        self.target = target
        self.headers = headers
        self.body = body
        self.tls = tls
        self.acceptsCompression = acceptsCompression
    }

    /// Whether the request goes out asking for a compressed body.
    var asksForCompression: Bool {
        // The length first, inline: most fields are not `Range`, and this runs for every request.
        acceptsCompression && !headers.contains { $0.name.utf8.count == 5 && $0.name.equalsIgnoringASCIICase("range") }
    }
}
