import Glibc
import Synchronization

/// Each caller's theoretical arrival time in this process's memory, in shards that each have a
/// lock of their own, so that requests on different event loops rarely wait for one another.
///
/// Bounded twice: a shard drops the entries whose time has passed (they hold no information)
/// whenever it has grown to twice what it held after its last sweep; and a shard at its share of
/// `maximumKeys` first drops those, then, if that freed less than an eighth of it, the entries
/// nearest to passing, until an eighth is free. Those callers lose at most the little debt they
/// had left; the table never grows past `maximumKeys`, whatever the number of addresses.
final class LocalRateLimitStore: RateLimitStore {
    /// A key with its hash, computed once per request: it picks the shard, and the table hashes
    /// only that number instead of the key again.
    private struct HashedKey: Hashable {
        let key: RateLimitKey
        let hash: Int

        static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private final class Shard: Sendable {
        struct State {
            var entries: [HashedKey: Int64] = [:]
            /// The size at which expired entries are next swept.
            var sweepAt = LocalRateLimitStore.firstSweep
        }

        let state = Mutex(State())
    }

    static let shardCount = 16
    static let firstSweep = 64

    let maximumKeys: Int
    private let shards: [Shard]
    private let capacityPerShard: Int
    /// Microseconds on a monotonic clock.
    private let now: @Sendable () -> Int64

    /// - Parameter now: the clock, in microseconds; by default `CLOCK_MONOTONIC`.
    init(maximumKeys: Int, now: @escaping @Sendable () -> Int64 = LocalRateLimitStore.monotonicMicroseconds) {
        self.maximumKeys = maximumKeys
        capacityPerShard = max(1, maximumKeys / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Shard() }
        self.now = now
    }

    func decide(_ key: RateLimitKey, under rate: GenericCellRate) -> RateLimitDecision {
        let now = self.now()
        let key = HashedKey(key: key, hash: key.hashValue)
        return shards[key.hash & (Self.shardCount - 1)].state.withLock { state in
            if let index = state.entries.index(forKey: key) {
                let decision = rate.decide(stored: state.entries.values[index], now: now)
                if decision.isAdmitted { state.entries.values[index] = decision.stored }
                return decision
            }
            let decision = rate.decide(stored: nil, now: now)
            if decision.isAdmitted {
                makeRoom(in: &state, now: now)
                state.entries[key] = decision.stored
            }
            return decision
        }
    }

    var keyCount: Int {
        shards.reduce(0) { total, shard in total + shard.state.withLock { $0.entries.count } }
    }

    /// Before a new entry: sweeps expired ones when the shard has doubled since the last sweep,
    /// and evicts down to seven eighths of the shard's capacity when it is full.
    private func makeRoom(in state: inout Shard.State, now: Int64) {
        guard state.entries.count >= min(state.sweepAt, capacityPerShard) else { return }
        state.entries = state.entries.filter { $0.value > now }
        let target = capacityPerShard - max(1, capacityPerShard / 8)
        if state.entries.count > target {
            // The entries nearest to expiring go first: they hold the least.
            for (key, _) in state.entries.sorted(by: { $0.value < $1.value }).prefix(state.entries.count - target) {
                state.entries[key] = nil
            }
        }
        state.sweepAt = max(Self.firstSweep, state.entries.count * 2)
    }

    static func monotonicMicroseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}
