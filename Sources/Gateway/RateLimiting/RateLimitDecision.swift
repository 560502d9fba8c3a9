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

    /// `wait` in whole seconds, rounded up: `Retry-After` and the `t` of the `RateLimit` field.
    var waitSeconds: Int { Int((wait + 999_999) / 1_000_000) }
}
