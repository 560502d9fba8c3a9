import Synchronization

/// Lets an upstream's calls through its circuit breaker and concurrency limit, and tells the
/// breaker how each ended.
///
/// It sits below the shared cache, so that stored answers are served whatever the breaker says
/// and an open circuit is a failure that `stale-if-error` can stand in for. A 2xx answer is
/// recorded by the caller once it has decoded the body (`record(_:)`), since an undecodable
/// answer may count as a failure; here it only frees a half-open circuit's probe slot. What
/// counts as a failure is `CircuitBreakerSettings.outcome(of:)`'s to say.
final class AdmissionTransport: Transport {
    private let base: any Transport
    private let breaker: Mutex<CircuitBreaker>
    private let limit: ConcurrencyLimit
    private let time: TimeSource
    private let settings: CircuitBreakerSettings

    init(wrapping base: any Transport, settings: UpstreamSettings, time: TimeSource) {
        self.base = base
        self.time = time
        self.settings = settings.circuitBreaker
        breaker = Mutex(CircuitBreaker(settings: settings.circuitBreaker))
        limit = ConcurrencyLimit(maximumRunning: settings.maximumConcurrentCalls, maximumWaiting: settings.maximumWaitingCalls)
    }

    var enforcesTimeout: Bool { base.enforcesTimeout }

    var circuitState: CircuitBreaker.State {
        breaker.withLock { $0.state }
    }

    func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        try admit()
        do {
            try await limit.acquire()
        } catch {
            record(.neutral)
            throw error
        }
        defer { limit.release() }
        do throws(UpstreamError) {
            let response = try await base.send(request)
            record(response.status.isSuccess ? .neutral : settings.outcome(of: .status(response.status, retryAfter: nil)))
            return response
        } catch {
            record(settings.outcome(of: error))
            throw error
        }
    }

    // Never inlined: their temporaries would enlarge the async frame that every call in flight
    // holds while it waits for the upstream.
    @inline(never)
    private func admit() throws(UpstreamError) {
        let now = time.now()
        try breaker.withLock { breaker throws(UpstreamError) in try breaker.admit(at: now) }
    }

    @inline(never)
    func record(_ outcome: CircuitBreaker.Outcome) {
        let now = time.now()
        breaker.withLock { $0.record(outcome, at: now) }
    }
}
