import HTTPBasics

/// An upstream's answer: the response message (status, header fields and the whole body), and
/// what the transports did to get it.
public struct Response: Sendable {
    /// The status, header fields and body, as the upstream sent them or the cache stored them.
    public var message: HTTPResponse
    /// What the shared cache did for the call (`CachingTransport`); nil when no cache was asked.
    public var cacheStatus: CacheStatus?
    /// Redirects followed to reach this answer (`UpstreamSettings.maximumRedirects`).
    public var redirects: Int {
        get { Int(redirectCount) }
        set { redirectCount = UInt8(clamping: newValue) }
    }
    /// One byte, in what would be padding after `cacheStatus`, so that the answer every frame holds
    /// does not grow: the limit is far below 255.
    private var redirectCount: UInt8 = 0
    /// The circuit breaker's ticket for the call that brought this answer from the upstream, for
    /// the caller that judges it to settle (`AdmissionTransport`); nil once stored or shared.
    var admission: AdmissionTicket?

    // `_modify` rather than `set`, so that `response.headers.set(…)` changes the message's
    // storage in place instead of copying it first.
    /// The message's status.
    public var status: HTTPStatus {
        get { message.status }
        _modify { yield &message.status }
    }
    /// The message's header fields.
    public var headers: HTTPHeaders {
        get { message.headers }
        _modify { yield &message.headers }
    }
    /// The message's body.
    public var body: [UInt8] {
        get { message.body }
        _modify { yield &message.body }
    }

    /// An answer that no transport has annotated yet, as a transport's exchange returns it.
    public init(_ message: HTTPResponse, cacheStatus: CacheStatus? = nil) {
        self.message = message
        self.cacheStatus = cacheStatus
    }

    /// An answer with a message of `status`, `headers` and `body`.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = [], cacheStatus: CacheStatus? = nil) {
        self.init(HTTPResponse(status: status, headers: headers, body: body), cacheStatus: cacheStatus)
    }
}
