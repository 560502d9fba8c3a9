import Synchronization

/// A named third-party API: where it lives, how it is called, and the transport that reaches it.
///
/// Each call passes, in order: the circuit breaker, the concurrency cap, then retries within the
/// deadline, each attempt running the action chain (credentials, cookies, headers) around a
/// timed-out transport call. State (breaker, cap, retry budget, tokens, cookies) belongs to this
/// instance alone, so nothing of one upstream ever reaches another. The path to the network takes
/// locks but no actor hop.
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
    private let transport: any Transport
    private let breaker: Mutex<CircuitBreaker>
    private let limit: ConcurrencyLimit
    private let time: TimeSource

    /// - Parameters:
    ///   - transport: reaches the network; it is wrapped here with logging, timeouts (unless it
    ///     `enforcesTimeout` itself), the action chain and retries.
    ///   - log: receives one line per attempt, credentials redacted; nil logs nothing.
    ///   - time: the clock for backoff, the breaker and token expiry; tests inject one that never sleeps.
    public init(
        name: String,
        baseURL: BaseURL,
        settings: UpstreamSettings = UpstreamSettings(),
        transport: any Transport,
        log: (@Sendable (String) -> Void)? = nil,
        time: TimeSource = .continuous
    ) {
        self.name = name
        self.baseURL = baseURL
        self.settings = settings
        self.time = time
        var wrapped = transport
        if let log { wrapped = LoggingTransport(wrapping: wrapped, label: name, log: log) }
        if !transport.enforcesTimeout { wrapped = TimeoutTransport(wrapping: wrapped) }
        wrapped = ActionChain(settings.actions, wrapping: wrapped)
        if settings.retryPolicy.maximumAttempts > 1 {
            wrapped = RetryingTransport(wrapping: wrapped, policy: settings.retryPolicy, deadline: settings.deadline, time: time)
        }
        self.transport = wrapped
        breaker = Mutex(CircuitBreaker(settings: settings.circuitBreaker))
        limit = ConcurrencyLimit(maximumRunning: settings.maximumConcurrentCalls, maximumWaiting: settings.maximumWaitingCalls)
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

    /// The circuit breaker's current state, for health reporting.
    public var circuitState: CircuitBreaker.State {
        breaker.withLock { $0.state }
    }

    private func perform<Value>(_ request: Request<Value>) async throws(UpstreamError) -> DecodedResponse<Value> {
        let wireRequest = try admitted(request)
        do {
            try await limit.acquire()
        } catch {
            record(.neutral)
            throw error
        }
        defer { limit.release() }
        do throws(UpstreamError) {
            let response = try await transport.send(wireRequest)
            guard response.body.count <= settings.maximumResponseBytes else {
                throw .bodyTooLarge(limit: settings.maximumResponseBytes)
            }
            let value = try request.value(from: response)
            record(.success)
            return DecodedResponse(value: value, status: response.status, headers: response.headers)
        } catch {
            record(CircuitBreaker.outcome(of: error))
            throw error
        }
    }

    /// The wire request for `request`, once the circuit breaker lets it through.
    ///
    /// Never inlined into `perform`: its temporaries would otherwise enlarge the async frame that
    /// every call in flight holds while it waits for the upstream.
    @inline(never)
    private func admitted<Value>(_ request: Request<Value>) throws(UpstreamError) -> TransportRequest {
        var wireRequest = try request.transportRequest(against: baseURL)
        wireRequest.timeout = min(settings.timeout, settings.deadline)
        wireRequest.maximumResponseBytes = settings.maximumResponseBytes
        let now = time.now()
        try breaker.withLock { breaker throws(UpstreamError) in try breaker.admit(at: now) }
        return wireRequest
    }

    // Never inlined either: `perform` records at three places.
    @inline(never)
    private func record(_ outcome: CircuitBreaker.Outcome) {
        let now = time.now()
        breaker.withLock { $0.record(outcome, at: now) }
    }
}
