import Synchronization

/// What the rate limit stores keep per caller, in this process's memory: one value per key, in
/// shards that each have a lock of their own, so that requests on different event loops rarely
/// wait for one another. Each value has a time after which it holds nothing and may be dropped.
///
/// Bounded twice: a shard drops the entries whose time has passed whenever it has grown to twice
/// what it held after its last sweep; and a shard at its share of `maximumKeys` first drops
/// those, then, if that freed less than an eighth of it, the entries nearest to passing, until an
/// eighth is free. Those callers lose at most the little they had left; the table never grows
/// past `maximumKeys`, whatever the number of addresses.
final class RateLimitTable<Value: Sendable>: Sendable {
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
            var entries: [HashedKey: Value] = [:]
            /// The size at which expired entries are next swept.
            var sweepAt = RateLimitTable.firstSweep
        }

        let state = Mutex(State())
    }

    static var shardCount: Int { 16 }
    static var firstSweep: Int { 64 }

    private let shards: [Shard]
    private let capacityPerShard: Int
    /// When a value stops mattering, on the clock the callers pass as `now`.
    private let expiry: @Sendable (Value) -> Int64

    /// - Parameter maximumKeys: the most keys held at once, all shards together.
    /// - Parameter expiry: the time after which a value holds nothing and may be dropped.
    init(maximumKeys: Int, expiry: @escaping @Sendable (Value) -> Int64) {
        capacityPerShard = max(1, maximumKeys / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Shard() }
        self.expiry = expiry
    }

    /// Runs `body` on `key`'s value (nil when none is held) under its shard's lock, keeping what
    /// `body` leaves: a new value, first making room for it; nil, which drops the entry.
    func update<Result>(_ key: RateLimitKey, now: Int64, _ body: (inout Value?) -> Result) -> Result {
        let key = HashedKey(key: key, hash: key.hashValue)
        return shards[key.hash & (Self.shardCount - 1)].state.withLock { state in
            if let index = state.entries.index(forKey: key) {
                var value: Value? = state.entries.values[index]
                let result = body(&value)
                if let value {
                    state.entries.values[index] = value
                } else {
                    state.entries.remove(at: index)
                }
                return result
            }
            var value: Value?
            let result = body(&value)
            if let value {
                makeRoom(in: &state, now: now)
                state.entries[key] = value
            }
            return result
        }
    }

    var count: Int {
        shards.reduce(0) { total, shard in total + shard.state.withLock { $0.entries.count } }
    }

    /// Before a new entry: sweeps expired ones when the shard has doubled since the last sweep,
    /// and evicts down to seven eighths of the shard's capacity when it is full.
    private func makeRoom(in state: inout Shard.State, now: Int64) {
        guard state.entries.count >= min(state.sweepAt, capacityPerShard) else { return }
        state.entries = state.entries.filter { expiry($0.value) > now }
        let target = capacityPerShard - max(1, capacityPerShard / 8)
        if state.entries.count > target {
            // The entries nearest to expiring go first: they hold the least.
            for (key, _) in state.entries.sorted(by: { expiry($0.value) < expiry($1.value) }).prefix(state.entries.count - target) {
                state.entries[key] = nil
            }
        }
        state.sweepAt = max(Self.firstSweep, state.entries.count * 2)
    }
}
