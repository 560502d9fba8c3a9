import Synchronization

/// Lets an upstream's calls through its circuit breaker, and owns what the breaker is told of
/// each: every admitted call holds an `AdmissionTicket`, and only a ticket records an outcome.
///
/// It sits below the shared cache, so that stored answers are served whatever the breaker says
/// and an open circuit is a failure that `stale-if-error` can stand in for. A failure, and an
/// answer that is not 2xx, settle the ticket here. A 2xx answer carries its ticket up
/// (`Response.admission`) to the caller that decodes it, since an undecodable answer may count as
/// a failure; an answer no caller judges (a background refresh, a cancelled call) drops it, which
/// counts as neither. What counts as a failure is `CircuitBreakerSettings.outcome(of:)`'s to say.
final class AdmissionTransport: Transport {
    private let base: any Transport
    private let breaker: Mutex<CircuitBreaker>
    private let time: TimeSource
    private let settings: CircuitBreakerSettings

    init(wrapping base: any Transport, settings: CircuitBreakerSettings, time: TimeSource) {
        self.base = base
        self.time = time
        self.settings = settings
        breaker = Mutex(CircuitBreaker(settings: settings))
    }

    var enforcesTimeout: Bool { base.enforcesTimeout }

    var circuitState: CircuitBreaker.State {
        breaker.withLock { $0.state }
    }

    func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        let ticket = try admit()
        do throws(UpstreamError) {
            var response = try await base.send(request)
            if response.status.isSuccess {
                response.admission = ticket
            } else {
                ticket.settle(failingWith: .status(response.status, retryAfter: nil))
            }
            return response
        } catch {
            ticket.settle(failingWith: error)
            throw error
        }
    }

    // Never inlined: their temporaries would enlarge the async frame that every call in flight
    // holds while it waits for the upstream.
    @inline(never)
    private func admit() throws(UpstreamError) -> AdmissionTicket {
        let now = time.now()
        try breaker.withLock { breaker throws(UpstreamError) in try breaker.admit(at: now) }
        return AdmissionTicket(admission: self)
    }

    @inline(never)
    fileprivate func record(_ outcome: CircuitBreaker.Outcome) {
        let now = time.now()
        breaker.withLock { $0.record(outcome, at: now) }
    }

    fileprivate func outcome(of error: UpstreamError) -> CircuitBreaker.Outcome {
        settings.outcome(of: error)
    }
}

/// One call the circuit breaker let through, settled once with how the call ended.
///
/// The first settlement counts and later ones are ignored; a ticket dropped unsettled (its answer
/// was never judged: cancelled, refreshed in the background, too large to use) counts as neutral,
/// so a half-open circuit's probe slot is freed whatever happens to the call.
final class AdmissionTicket: Sendable {
    private let admission: AdmissionTransport
    private let isSettled = Atomic(false)

    fileprivate init(admission: AdmissionTransport) {
        self.admission = admission
    }

    /// The call's answer was used: the upstream is well.
    func settleSucceeded() {
        settle(.success)
    }

    /// The call failed with `error`, which counts as `CircuitBreakerSettings.outcome(of:)` says.
    func settle(failingWith error: UpstreamError) {
        settle(admission.outcome(of: error))
    }

    private func settle(_ outcome: CircuitBreaker.Outcome) {
        guard !isSettled.exchange(true, ordering: .relaxed) else { return }
        admission.record(outcome)
    }

    deinit {
        if !isSettled.load(ordering: .relaxed) { admission.record(.neutral) }
    }
}
