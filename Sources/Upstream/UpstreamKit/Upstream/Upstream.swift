/// A named third-party API: where it lives, how it is called, and the transport that reaches it.
///
/// Each call passes, in order: the shared cache (when given one), the circuit breaker, then
/// retries within the deadline, each attempt running the action chain (credentials, cookies,
/// headers) around a timed-out transport call. A call waits for room in one place only, the
/// transport's connection pool (`UpstreamSettings.maximumConnections`). State (breaker, retry
/// budget, tokens, cookies, stored answers) belongs to this instance alone, so nothing of one
/// upstream ever reaches another. A redirect under the base URL is followed as a call of its own
/// through all of these (`RedirectFollower`). The path to the network takes locks but no actor hop.
///
/// ```swift
/// let swapi = Upstream(name: "swapi", baseURL: try BaseURL("https://swapi.dev/api"),
///                      transport: URLSessionTransport(maximumConnectionsPerHost: 8))
/// let luke = try await swapi.send(Request<Person>(path: try Path("people", "1", trailingSlash: true)))
/// ```
public final class Upstream: Sendable {
    public let name: String
    public let baseURL: BaseURL
    public let settings: UpstreamSettings
    let transport: any Transport
    private let admission: AdmissionTransport
    /// nil when `settings.maximumRedirects` is 0: redirects are answers then.
    private let redirects: RedirectFollower?

    /// - Parameters:
    ///   - transport: reaches the network; it is wrapped here with logging, timeouts (unless it
    ///     `enforcesTimeout` itself), the action chain, retries and the circuit breaker, and,
    ///     given a `cache`, the shared cache on the outside. Its pool bounds the calls in
    ///     flight and those waiting for a connection.
    ///   - cache: where answers are stored by the rules of `settings.cache` (and each
    ///     `Request.cache`); nil caches nothing.
    ///   - sharedTier: the tier behind `cache` that other replicas share (such as Redis); nil for none.
    ///   - log: receives one line per attempt, credentials redacted; nil logs nothing.
    ///   - time: the clock for backoff, the breaker and token expiry; tests inject one that never sleeps.
    public init(
        name: String,
        baseURL: BaseURL,
        settings: UpstreamSettings = UpstreamSettings(),
        transport: any Transport,
        cache: ResponseCache? = nil,
        sharedTier: (any SharedResponseTier)? = nil,
        log: (@Sendable (String) -> Void)? = nil,
        time: TimeSource = .continuous
    ) {
        self.name = name
        self.baseURL = baseURL
        self.settings = settings
        var wrapped = transport
        if let log { wrapped = LoggingTransport(wrapping: wrapped, label: name, log: log) }
        if !transport.enforcesTimeout { wrapped = TimeoutTransport(wrapping: wrapped) }
        wrapped = ActionChain(settings.actions, wrapping: wrapped)
        if settings.retryPolicy.maximumAttempts > 1 {
            wrapped = RetryingTransport(wrapping: wrapped, policy: settings.retryPolicy, deadline: settings.deadline, time: time)
        }
        admission = AdmissionTransport(wrapping: wrapped, settings: settings.circuitBreaker, time: time)
        wrapped = admission
        if let cache { wrapped = CachingTransport(wrapping: wrapped, store: cache, partition: name, sharedTier: sharedTier) }
        self.transport = wrapped
        redirects = settings.maximumRedirects > 0
            ? RedirectFollower(policy: RedirectPolicy(baseURL: baseURL, maximumRedirects: settings.maximumRedirects)) : nil
    }

    /// Sends `request` and returns its decoded value.
    ///
    /// - Throws: `UpstreamFailure` naming this upstream. A non-2xx answer is `.status`, carrying the
    ///   upstream's `Retry-After` when it gave one.
    public func send<Value>(_ request: Request<Value>) async throws(UpstreamFailure) -> Value {
        try await response(to: request).value
    }

    /// Sends `request` and returns its decoded value with the status and header fields of the
    /// answer; fails as `send(_:)` does.
    public func response<Value>(to request: Request<Value>) async throws(UpstreamFailure) -> DecodedResponse<Value> {
        do {
            return try await perform(request)
        } catch {
            throw UpstreamFailure(upstream: name, error: error)
        }
    }

    /// Sends `request` and returns the upstream's answer whatever its status, for callers that
    /// pass answers on as they are (a proxy route, which sets `followsRedirects` to false to pass
    /// redirects on too); fails only when no answer arrived or a redirect could not be followed.
    public func exchange(_ request: Request<Response>) async throws(UpstreamFailure) -> Response {
        do throws(UpstreamError) {
            var response = try await sent(try wireRequest(for: request))
            if response.status.isSuccess, response.cacheStatus?.forwarded ?? true { response.admission?.settleSucceeded() }
            response.admission = nil
            return response
        } catch {
            throw UpstreamFailure(upstream: name, error: error)
        }
    }

    /// The circuit breaker's current state, for health reporting.
    public var circuitState: CircuitBreaker.State {
        admission.circuitState
    }

    private func perform<Value>(_ request: Request<Value>) async throws(UpstreamError) -> DecodedResponse<Value> {
        let response = try await sent(try wireRequest(for: request))
        guard response.body.count <= settings.maximumResponseBytes else {
            throw .bodyTooLarge(limit: settings.maximumResponseBytes)
        }
        // A 2xx this call brought from the upstream counts for the breaker once decoded; other
        // statuses were counted below the cache, stored answers not at all.
        let ticket = response.status.isSuccess && response.cacheStatus?.forwarded ?? true ? response.admission : nil
        do throws(UpstreamError) {
            let value = try request.value(from: response)
            ticket?.settleSucceeded()
            return DecodedResponse(
                value: value, status: response.status, headers: response.headers, cacheStatus: response.cacheStatus, redirects: response.redirects)
        } catch {
            ticket?.settle(failingWith: error)
            throw error
        }
    }

    /// The answer to `request` through the whole stack, at the end of the redirects it starts
    /// when this upstream follows them.
    ///
    /// Never inlined: a second await in the callers would enlarge the async frame that every call
    /// in flight holds while it waits for the upstream.
    @inline(never)
    private func sent(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        let response = try await transport.send(request)
        guard RedirectPolicy.isRedirect(response.status), let redirects else { return response }
        return try await redirects.follow(response, to: request, via: transport)
    }

    /// The wire request for `request` under this upstream's limits and cache settings.
    ///
    /// Never inlined into `perform`: its temporaries would otherwise enlarge the async frame that
    /// every call in flight holds while it waits for the upstream.
    @inline(never)
    func wireRequest<Value>(for request: Request<Value>) throws(UpstreamError) -> TransportRequest {
        var wireRequest = try request.transportRequest(against: baseURL)
        wireRequest.timeout = min(settings.timeout, settings.deadline)
        wireRequest.maximumResponseBytes = settings.maximumResponseBytes
        wireRequest.cache = request.cache ?? settings.cache
        wireRequest.acceptsCompression = settings.acceptsCompression
        return wireRequest
    }
}
