/// How often each reference of one endpoint's templates found nothing in its call's answer, and
/// when to say so in the log: the first time at once, then at most once per `warningInterval`
/// with the count since the last line, so a renamed upstream field shows without flooding the log.
///
/// Pure: the caller passes the clock's reading.
struct MissingFieldCounts {
    /// Per slot, the misses since start-up, for `/metrics`.
    private(set) var totals: [Int]
    /// Per slot, the misses not yet in a warning line.
    private var unreported: [Int]
    /// Per slot, when its last warning was written.
    private var lastWarning: [ContinuousClock.Instant?]
    let warningInterval: Duration

    init(slots: Int, warningInterval: Duration = .seconds(60)) {
        totals = Array(repeating: 0, count: slots)
        unreported = totals
        lastWarning = Array(repeating: nil, count: slots)
        self.warningInterval = warningInterval
    }

    /// Counts one miss of `slot` at `now`; returns the misses a warning written now reports, or
    /// nil when the last warning of that slot is too recent.
    mutating func record(_ slot: Int, at now: ContinuousClock.Instant) -> Int? {
        totals[slot] += 1
        unreported[slot] += 1
        if let last = lastWarning[slot], now - last < warningInterval { return nil }
        lastWarning[slot] = now
        defer { unreported[slot] = 0 }
        return unreported[slot]
    }
}
