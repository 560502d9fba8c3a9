/// The generic cell rate algorithm (GCRA) of one policy: whether a request is admitted, as a pure
/// function of the one number kept per caller, the clock, and the policy.
///
/// The number kept is the caller's *theoretical arrival time*: when its next request would be on
/// time at the steady rate. Each admitted request pushes it one interval (period ÷ count) later;
/// a request is admitted while that leaves it at most `burst` intervals ahead of now. A time in
/// the past holds no information: the caller has its whole burst, as a new one does, so such an
/// entry can be dropped.
///
/// All times are whole microseconds on one clock (any origin), so that a script in a shared store
/// can compute the very same decisions in its own time with integer arithmetic that doubles
/// represent exactly.
struct GenericCellRate: Sendable, Equatable {
    /// Microseconds between two requests at the steady rate, rounded up.
    let interval: Int64
    /// How far ahead of now the theoretical arrival time may run: `burst` intervals.
    let capacity: Int64

    init(_ policy: RateLimitPolicy) {
        let period = Int64(policy.periodSeconds) * 1_000_000
        let count = Int64(policy.count)
        interval = (period + count - 1) / count
        capacity = interval * Int64(policy.burst)
    }

    /// The decision on a request arriving at `now` from a caller whose stored theoretical arrival
    /// time is `stored` (nil: none is stored).
    ///
    /// - Parameter wanted: how many admissions to grant at once, at most: the request's own and
    ///   those a replica keeps for the caller's next requests (a lease). Fewer are granted when
    ///   the caller has less than four times that left, and one (the request's) when it is near its
    ///   limit, so that a lease never holds much of what the caller could still use elsewhere.
    /// - Parameter returned: admissions of an ended lease that were never used, given back first,
    ///   so that a replica holding a lease charges the caller for what it admitted and no more.
    func decide(stored: Int64?, now: Int64, wanted: Int = 1, returned: Int = 0) -> RateLimitDecision {
        let arrival = max((stored ?? now) - Int64(returned) * interval, now)
        let debt = arrival + interval - now
        guard debt <= capacity else {
            // Refused: nothing changes, and one interval is free once the debt has shrunk to the capacity.
            return RateLimitDecision(isAdmitted: false, stored: arrival, remaining: 0, wait: debt - capacity, granted: 0)
        }
        let (remaining, part) = (capacity - debt).quotientAndRemainder(dividingBy: interval)
        let granted = min(Int64(wanted), max(1, (remaining + 1) / 4))
        // One more request fits once the unused part of an interval has grown to a whole one.
        return RateLimitDecision(
            isAdmitted: true, stored: arrival + granted * interval, remaining: Int(remaining - (granted - 1)), wait: interval - part,
            granted: Int(granted))
    }
}
