import HTTPBasics

/// A request ready for the wire: its origin, its percent-encoded target and everything it carries.
public struct TransportRequest: Sendable {
    public var method: HTTPMethod
    public var origin: Origin
    /// Path and query, already percent-encoded: `/api/people/1/?format=json`.
    public var target: String
    public var headers: HTTPHeaders
    public var body: [UInt8]?
    /// A body sent as it is read, instead of `body` (a proxy route's upload). A request with one
    /// is sent once: never retried, resent or redirected.
    public var bodyStream: HTTPBodyStream?
    /// How long the transport may take for this attempt, from sending to the last byte of the response.
    public var timeout: Duration
    /// The largest response body the transport accepts before failing with `.bodyTooLarge`.
    public var maximumResponseBytes: Int
    /// Whether the upstream's credentials go with this request. Actions read it; it never goes on the wire.
    public var requiresAuthentication: Bool
    /// Whether the upstream's cookie jar keeps the cookies the answer sets (see `Request.storesCookies`).
    public var storesCookies: Bool
    /// Whether `Upstream` follows the answer's redirects (see `Request.followsRedirects`).
    public var followsRedirects: Bool
    /// Which of `BearerToken`'s epochs the request went out in, so its answer is counted there; 0
    /// when it carries no bearer token of this upstream's. Four bytes, beside the flags, in what
    /// would otherwise be padding, so that the request every frame holds does not grow.
    var credentialEpoch: UInt32 = 0
    /// When the caller stops waiting, whatever attempts remain; nil when only `timeout` bounds each attempt.
    public var deadline: ContinuousClock.Instant?
    /// How a `CachingTransport` may store and reuse the answer; nil passes the request straight through.
    public var cache: CacheSettings?
    /// Whether the transport asks for a compressed answer (gzip or deflate) and inflates it before
    /// anyone sees it, under `maximumResponseBytes`; false asks for the body as it is. A transport
    /// that cannot inflate ignores it, and one whose HTTP stack decides by itself (URLSession) does.
    public var acceptsCompression: Bool
    /// Whether an answer longer than `Self.wholeBodyLimit`, or of unknown length, comes back as a
    /// stream (`HTTPResponse.bodyStream`, read at the caller's pace, with no size limit and
    /// `timeout` between reads) rather than read whole under `maximumResponseBytes`. A transport
    /// that cannot stream reads it whole.
    public var streamsResponse = false
    /// Told of each retry (`RetryingTransport`), for the caller's log; nil for none.
    public var attemptObserver: (any AttemptObserver)?

    /// With `streamsResponse`, answers of known length up to this are still read whole: one read
    /// usually brings them, and a cache may keep them.
    public static let wholeBodyLimit = 64 * 1024

    public init(
        method: HTTPMethod,
        origin: Origin,
        target: String,
        headers: HTTPHeaders = [:],
        body: [UInt8]? = nil,
        timeout: Duration = .seconds(10),
        maximumResponseBytes: Int = UpstreamSettings.defaultMaximumResponseBytes,
        requiresAuthentication: Bool = false,
        storesCookies: Bool = true,
        followsRedirects: Bool = true,
        deadline: ContinuousClock.Instant? = nil,
        cache: CacheSettings? = nil,
        acceptsCompression: Bool = true,
        bodyStream: HTTPBodyStream? = nil,
        streamsResponse: Bool = false
    ) {
        self.method = method
        self.origin = origin
        self.target = target
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.requiresAuthentication = requiresAuthentication
        self.storesCookies = storesCookies
        self.followsRedirects = followsRedirects
        self.deadline = deadline
        self.cache = cache
        self.acceptsCompression = acceptsCompression
        self.bodyStream = bodyStream
        self.streamsResponse = streamsResponse
    }
}
