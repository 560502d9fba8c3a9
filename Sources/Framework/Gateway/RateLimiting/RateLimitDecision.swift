/// What `GenericCellRate` decided for one request, and what the answer tells the caller.
struct RateLimitDecision: Sendable, Equatable {
    /// Whether the request goes on.
    let isAdmitted: Bool
    /// The caller's theoretical arrival time to keep, in microseconds (unchanged when refused).
    let stored: Int64
    /// Requests the caller may still make at once (`r` of the `RateLimit` field).
    let remaining: Int
    /// Microseconds until the caller may make one more request than `remaining`: when refused,
    /// until it may make one at all (`Retry-After`).
    let wait: Int64
    /// Admissions granted: 0 when refused, else 1 (the request's own) or more, the rest leased to
    /// the replica for the caller's next requests (`GenericCellRate.decide(stored:now:wanted:)`).
    let granted: Int

    init(isAdmitted: Bool, stored: Int64, remaining: Int, wait: Int64, granted: Int = 1) {
        self.isAdmitted = isAdmitted
        self.stored = stored
        self.remaining = remaining
        self.wait = wait
        self.granted = isAdmitted ? granted : 0
    }

    /// `wait` in whole seconds, rounded up: `Retry-After` and the `t` of the `RateLimit` field.
    var waitSeconds: Int { Int((wait + 999_999) / 1_000_000) }
}
