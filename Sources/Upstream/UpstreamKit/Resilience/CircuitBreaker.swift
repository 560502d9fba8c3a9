/// The circuit breaker's state machine, a pure value: callers pass the time and keep it behind a lock.
///
/// Closed: calls pass and consecutive failures are counted; at the threshold the circuit opens.
/// Open: calls are refused until the cool-down ends. Half-open: exactly one probe passes; its success
/// closes the circuit, its failure opens it again for another cool-down.
public struct CircuitBreaker: Sendable, Equatable {
    /// Where the breaker stands, as described above.
    public enum State: Sendable, Equatable {
        case closed(consecutiveFailures: Int)
        case open(until: ContinuousClock.Instant)
        case halfOpen(probeInFlight: Bool)
    }

    /// What happened to a call the breaker admitted.
    public enum Outcome: Sendable {
        /// The upstream answered (whatever the status, unless the settings count its failing answers).
        case success
        /// The upstream is unwell: no connection, a timeout, an invalid response; a failing answer
        /// too when `CircuitBreakerSettings.countsServerErrors` (see `outcome(of:)` there).
        case failure
        /// The call ended without saying anything about the upstream (cancelled, refused before sending).
        case neutral
    }

    public private(set) var state: State = .closed(consecutiveFailures: 0)
    public let settings: CircuitBreakerSettings

    public init(settings: CircuitBreakerSettings) {
        self.settings = settings
    }

    /// Admits a call at `now`, or throws `.circuitOpen` with the time left to rest.
    public mutating func admit(at now: ContinuousClock.Instant) throws(UpstreamError) {
        switch state {
        case .closed:
            return
        case .open(let until):
            guard now >= until else { throw .circuitOpen(retryAfter: now.duration(to: until)) }
            state = .halfOpen(probeInFlight: true)
        case .halfOpen(let probeInFlight):
            guard !probeInFlight else { throw .circuitOpen(retryAfter: nil) }
            state = .halfOpen(probeInFlight: true)
        }
    }

    /// Records the outcome of an admitted call that ended at `now`.
    public mutating func record(_ outcome: Outcome, at now: ContinuousClock.Instant) {
        switch (state, outcome) {
        case (_, .success):
            state = .closed(consecutiveFailures: 0)
        case (.closed(let failures), .failure):
            state = failures + 1 >= settings.failureThreshold
                ? .open(until: now + settings.coolDown)
                : .closed(consecutiveFailures: failures + 1)
        case (.halfOpen, .failure):
            state = .open(until: now + settings.coolDown)
        case (.halfOpen, .neutral):
            state = .halfOpen(probeInFlight: false)
        case (.open, _), (.closed, .neutral):
            break
        }
    }
}
