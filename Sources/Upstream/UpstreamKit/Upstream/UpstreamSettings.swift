/// How one upstream is called: limits, timeouts, resilience and its action chain.
public struct UpstreamSettings: Sendable {
    /// The longest one attempt may take, from sending to the last byte of the response.
    public var timeout: Duration
    /// The longest a whole call may take, every retry and backoff included; twice `timeout` unless given.
    public var deadline: Duration
    /// Connections the transport may hold open to the upstream, for whoever builds its transport
    /// (`PooledTransport`'s `HTTPClient.Configuration.maximumConnectionsPerOrigin`,
    /// `URLSessionTransport(maximumConnectionsPerHost:)`).
    ///
    /// The transport's pool is the one place a call waits for room: `Upstream` keeps no queue of
    /// its own, so calls beyond the connections wait for one in the pool, bounded by its waiters
    /// (`HTTPClient.Configuration.maximumWaitersPerOrigin`), and fail at once with `.overloaded`
    /// when that queue is full.
    public var maximumConnections: Int
    /// The largest response body accepted; larger ones fail with `.bodyTooLarge`.
    public var maximumResponseBytes: Int
    public var retryPolicy: RetryPolicy
    /// Redirects followed in one call, each under the base URL only; 0 passes redirects on as answers.
    public var maximumRedirects: Int
    public var circuitBreaker: CircuitBreakerSettings
    /// Steps run around every attempt, in order: credentials, cookies, extra headers.
    public var actions: [any UpstreamAction]
    /// How the shared cache treats this upstream's answers, when the `Upstream` has one; a
    /// `Request.cache` of its own overrides it.
    public var cache: CacheSettings
    /// Whether calls ask for compressed answers (gzip or deflate), inflated by the transport before
    /// decoding or caching; false asks for identity.
    public var acceptsCompression: Bool

    /// The largest response body a call accepts unless its upstream's settings say otherwise.
    public static let defaultMaximumResponseBytes = 8 << 20

    /// Settings for a client of one upstream, by default those of a library client calling it
    /// now and then (a gateway sets its own from its configuration).
    public init(
        timeout: Duration = .seconds(5),
        deadline: Duration? = nil,
        maximumConnections: Int = 32,
        maximumResponseBytes: Int = defaultMaximumResponseBytes,
        retryPolicy: RetryPolicy = RetryPolicy(),
        maximumRedirects: Int = 5,
        circuitBreaker: CircuitBreakerSettings = CircuitBreakerSettings(),
        actions: [any UpstreamAction] = [],
        cache: CacheSettings = .standard,
        acceptsCompression: Bool = true
    ) {
        self.timeout = timeout
        self.deadline = deadline ?? timeout * 2
        self.maximumConnections = maximumConnections
        self.maximumResponseBytes = maximumResponseBytes
        self.retryPolicy = retryPolicy
        self.maximumRedirects = maximumRedirects
        self.circuitBreaker = circuitBreaker
        self.actions = actions
        self.cache = cache
        self.acceptsCompression = acceptsCompression
    }
}
