import Glibc

/// Each caller's theoretical arrival time in this process's memory (a `RateLimitTable`, which
/// drops a time once it has passed: it then holds no information).
final class LocalRateLimitStore: RateLimitStore {
    private let table: RateLimitTable<Int64>
    /// Microseconds on a monotonic clock.
    private let now: @Sendable () -> Int64

    /// - Parameter now: the clock, in microseconds; by default `CLOCK_MONOTONIC`.
    init(maximumKeys: Int, now: @escaping @Sendable () -> Int64 = LocalRateLimitStore.monotonicMicroseconds) {
        table = RateLimitTable(maximumKeys: maximumKeys) { $0 }
        self.now = now
    }

    func decide(_ key: RateLimitKey, under rate: GenericCellRate, route: String) -> RateLimitDecision {
        decide(key, under: rate)
    }

    /// The decision on one request of `key`, kept in this process.
    func decide(_ key: RateLimitKey, under rate: GenericCellRate) -> RateLimitDecision {
        let now = self.now()
        return table.update(key, now: now) { stored in
            let decision = rate.decide(stored: stored, now: now)
            if decision.isAdmitted { stored = decision.stored }
            return decision
        }
    }

    var keyCount: Int { table.count }

    static func monotonicMicroseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}
