/// Whether Redis is usable, as a pure state machine of successes, failures and a clock.
///
/// Redis starts up (so the first command tries it). A connection-level failure marks it down and
/// sets when the next connection attempt may start: a back-off that doubles with each failure in a
/// row from `initialBackoff` up to `maximumBackoff`, scaled by a random factor in [0.5, 1) so that
/// replicas that lost Redis together do not reconnect together. A success marks it up again.
/// Transitions are returned so that the caller logs one line per change, not per command.
public struct RedisHealth: Sendable, Equatable {
    /// A change of state, for the one log line and the metric it causes.
    public enum Transition: Sendable, Equatable {
        /// Redis answered again after being down.
        case recovered
        /// Redis failed; the next attempt waits `retryAfter`.
        case failed(retryAfter: Duration)
    }

    /// The first back-off after a failure.
    public let initialBackoff: Duration
    /// The longest back-off.
    public let maximumBackoff: Duration
    /// Whether the last outcome was a success.
    public private(set) var isUp = true
    /// Failures in a row since the last success.
    public private(set) var consecutiveFailures = 0
    /// When the next connection attempt may start while down.
    public private(set) var retryAt: ContinuousClock.Instant?

    /// A machine that starts up, with the given back-off bounds.
    public init(initialBackoff: Duration = .milliseconds(100), maximumBackoff: Duration = .seconds(10)) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = max(maximumBackoff, initialBackoff)
    }

    /// When the client tries a connection of its own accord, with no command asking for one: at
    /// the end of the back-off while Redis is down; never while it is up (a connection lost then
    /// is replaced at once, and a failed replacement marks Redis down). So Redis found again is
    /// known within one back-off, at most `maximumBackoff`, with or without traffic.
    public var backgroundAttemptAt: ContinuousClock.Instant? {
        isUp ? nil : retryAt
    }

    /// Whether a new connection may be attempted at `now`.
    public func mayConnect(at now: ContinuousClock.Instant) -> Bool {
        guard let retryAt else { return true }
        return now >= retryAt
    }

    /// Records an answer from Redis; returns `.recovered` when it was down.
    public mutating func recordSuccess() -> Transition? {
        consecutiveFailures = 0
        retryAt = nil
        guard !isUp else { return nil }
        isUp = true
        return .recovered
    }

    /// Records a connection-level failure at `now`, `jitter` drawn from [0, 1); returns
    /// `.failed` when Redis was up (later failures only lengthen the back-off).
    public mutating func recordFailure(at now: ContinuousClock.Instant, jitter: Double) -> Transition? {
        consecutiveFailures += 1
        let doublings = min(consecutiveFailures - 1, 30)
        let ceiling = min(initialBackoff * (1 << doublings), maximumBackoff)
        let delay = ceiling * (0.5 + min(max(jitter, 0), 1) / 2)
        retryAt = now + delay
        guard isUp else { return nil }
        isUp = false
        return .failed(retryAfter: delay)
    }
}
