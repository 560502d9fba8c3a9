/// What a Redis's memory bound means for the rate limits it holds beside cached answers.
///
/// Redis bounds memory per instance, not per database: under `maxmemory` an evicting policy
/// (`allkeys-*`, `volatile-*`: limit states carry an expiry too) may drop a caller's limit state
/// to make room for cached answers, which admits the caller again; `noeviction` refuses writes
/// once full, limit states' among them, which leaves every replica deciding alone. Either way a
/// client that fills the cache (one URL after another) loosens everyone's limits. So when Redis
/// has a `maxmemory`, whatever its policy, the cache tier does not use it and limits keep it to
/// themselves; without one, nothing is evicted (docs/SCALING.md).
enum RedisMemoryPolicy: Equatable, Sendable {
    /// No `maxmemory`: the cache may share Redis with the limits.
    case unbounded
    /// A `maxmemory` of `bytes` under `policy`: the cache keeps off this Redis.
    case bounded(bytes: Int64, policy: String)
    /// Redis would not tell (`CONFIG` refused, as managed services do, or an odd answer).
    case unknown(reason: String)

    /// Why Redis did not tell a setting.
    struct Refusal: Error, Equatable {
        let reason: String
    }

    /// The policy from the replies to `CONFIG GET maxmemory` and `CONFIG GET maxmemory-policy`:
    /// each an array of the name and the value (a map under RESP3).
    init(maxmemory: Result<[String], Refusal>, policy: Result<[String], Refusal>) {
        switch (maxmemory, policy) {
        case (.failure(let refusal), _), (_, .failure(let refusal)):
            self = .unknown(reason: refusal.reason)
        case (.success(let maxmemory), .success(let policy)):
            guard maxmemory.count == 2, policy.count == 2, let bytes = Int64(maxmemory[1]), bytes >= 0 else {
                self = .unknown(reason: "CONFIG GET answered \(maxmemory) and \(policy)")
                return
            }
            self = bytes == 0 ? .unbounded : .bounded(bytes: bytes, policy: policy[1])
        }
    }

    /// Whether the cache tier may write to this Redis: unless it has a memory bound. When Redis
    /// does not tell, the operator's word in docs/SCALING.md stands, and the tier is used.
    var allowsCache: Bool {
        if case .bounded = self { return false }
        return true
    }

    /// The one line start-up logs, nil when there is nothing to say.
    var logLine: String? {
        switch self {
        case .unbounded:
            nil
        case .bounded(let bytes, let policy):
            "redis: maxmemory is \(bytes) bytes with maxmemory-policy \(policy), so cached answers could "
                + (policy == "noeviction" ? "fill it and have rate-limit writes refused" : "evict rate-limit state")
                + "; the shared cache tier is off and Redis holds rate limits only (docs/SCALING.md: give the cache "
                + "a Redis without maxmemory, or set maxmemory 0)"
        case .unknown(let reason):
            "redis: cannot check maxmemory and maxmemory-policy (\(reason)); the shared cache tier is on: make sure "
                + "cached answers cannot evict rate-limit state (docs/SCALING.md)"
        }
    }
}
