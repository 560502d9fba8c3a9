import NetworkRuntime
import RedisClient
import Synchronization

/// Rate limits shared by every replica: each caller's theoretical arrival time lives in Redis and
/// each decision that reaches Redis is one atomic script (`GenericCellRate`'s arithmetic, in
/// Redis's own time), so a caller spread over the replicas gets the limit once, not once per
/// replica.
///
/// **The fast path.** A caller far below its limit is granted more than one admission at once
/// (`GenericCellRate.decide(stored:now:wanted:)`): the replica keeps the rest as a *lease* and
/// admits the caller's next requests from it without a round trip, for at most `leaseLifetime`.
/// Leased admissions are charged to the shared state when granted, so the limit's long-run count
/// holds exactly; using them up to `leaseLifetime` later can put at most `leaseLifetime ÷ interval`
/// more requests into a short span than the limit allows there (docs/SCALING.md). What a lease
/// did not use is given back with the replica's next decision for the caller, so that a caller
/// below its limit is charged for its requests only, however many replicas hold leases. A refusal is
/// kept too, until its `Retry-After` has passed (nothing but time can admit the caller), so a
/// refused caller's flood costs Redis nothing.
///
/// **Failure.** When Redis is down or does not answer within its timeout, the decision is the
/// replica's own (`LocalRateLimitStore`): limits hold per replica, no request fails, and the
/// client's health machine logs the change once and reports it in `/metrics` and `/readyz`.
final class RedisRateLimitStore: RateLimitStore {
    /// Admissions granted to this replica and not used yet, or a refusal still in force.
    struct Lease: Sendable {
        /// Admissions left; 0 for a refusal.
        var admissions: Int
        /// What the caller had left in Redis when the lease was granted.
        var remaining: Int
        /// The decision's wait, for the `RateLimit` field.
        var wait: Int64
        /// When the lease ends (a refusal: when the caller may try again), on the local clock.
        var until: Int64
    }

    /// What every key name starts with; the number changes with the script's layout.
    static let prefix = "gateway:rl:1:"
    /// How long a replica may hold leased admissions, in microseconds.
    static let leaseLifetime: Int64 = 100_000

    /// `KEYS[1]`: the caller's state. `ARGV`: the interval and capacity in microseconds, the most
    /// admissions to grant, and the unused admissions of an ended lease given back. Returns the admissions granted (0: refused), what is left, the wait
    /// and the new state in microseconds, and Redis's time. The arithmetic is
    /// `GenericCellRate.decide(stored:now:wanted:)`'s, step for step; Lua's numbers are doubles,
    /// exact for these integers (all below 2^53).
    static let script = RedisScript(
        """
        local interval = tonumber(ARGV[1])
        local capacity = tonumber(ARGV[2])
        local wanted = tonumber(ARGV[3])
        local returned = tonumber(ARGV[4])
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local arrival = (tonumber(redis.call('GET', KEYS[1])) or now) - returned * interval
        if arrival < now then arrival = now end
        local debt = arrival + interval - now
        if debt > capacity then
          if returned > 0 then
            redis.call('SET', KEYS[1], string.format('%d', arrival), 'PX', math.ceil((arrival - now) / 1000))
          end
          return {0, 0, debt - capacity, arrival, now}
        end
        local remaining = math.floor((capacity - debt) / interval)
        local part = (capacity - debt) - remaining * interval
        local granted = math.max(1, math.floor((remaining + 1) / 4))
        if granted > wanted then granted = wanted end
        local stored = arrival + granted * interval
        redis.call('SET', KEYS[1], string.format('%d', stored), 'PX', math.ceil((stored - now) / 1000))
        return {granted, remaining - (granted - 1), interval - part, stored, now}
        """)

    let client: RedisClient
    /// Decides while Redis cannot.
    let fallback: LocalRateLimitStore
    private let leases: RateLimitTable<Lease>
    /// The callers whose ask is in flight, and those waiting for it.
    private let asking = AsksInFlight()
    /// Microseconds on a monotonic clock: lease and refusal lifetimes only, never a decision's time.
    private let now: @Sendable () -> Int64

    init(client: RedisClient, maximumKeys: Int, now: @escaping @Sendable () -> Int64 = LocalRateLimitStore.monotonicMicroseconds) {
        self.client = client
        fallback = LocalRateLimitStore(maximumKeys: maximumKeys, now: now)
        leases = RateLimitTable(maximumKeys: maximumKeys) { $0.until }
        self.now = now
    }

    func decide(_ key: RateLimitKey, under rate: GenericCellRate, route: String) async -> RateLimitDecision {
        while true {
            let now = self.now()
            var unused = 0
            if let decision = leases.update(key, now: now, { lease in Self.take(from: &lease, now: now, unused: &unused) }) { return decision }
            // One ask per caller at a time: the others wait for its lease rather than each take
            // admissions from Redis that the rest would then lack. Unused admissions to give back
            // go with an ask of their own.
            guard unused > 0 || asking.begin(key) else {
                // When the ask found Redis wanting, so would this one: it decides alone at once.
                guard await asking.wait(for: key) else { return fallback.decide(key, under: rate) }
                continue
            }
            let (decision, reachedRedis) = await ask(for: key, under: rate, route: route, now: now, returning: unused)
            if unused == 0 { asking.end(key, reachedRedis: reachedRedis) }
            return decision
        }
    }

    /// Asks Redis for `key`'s admissions, giving back `unused` ones, and keeps what was granted
    /// beyond this request as the caller's lease; the decision, and whether Redis made it.
    private func ask(
        for key: RateLimitKey, under rate: GenericCellRate, route: String, now: Int64, returning unused: Int
    ) async -> (RateLimitDecision, reachedRedis: Bool) {
        let wanted = max(1, Self.leaseLifetime / rate.interval)
        let decision: RateLimitDecision
        do {
            decision = try await ask(Self.name(of: key, route: route), rate: rate, wanted: Int(clamping: wanted), returned: unused).decision
        } catch {
            // Down, slow or refusing: the client has recorded it; this replica decides alone.
            return (fallback.decide(key, under: rate), false)
        }
        return (keep(decision, for: key, now: now), true)
    }

    /// `decision` for this request, what it granted beyond it kept as `key`'s lease.
    private func keep(_ decision: RateLimitDecision, for key: RateLimitKey, now: Int64) -> RateLimitDecision {
        guard decision.granted != 1 else { return decision }
        let lease = Lease(
            admissions: max(0, decision.granted - 1), remaining: decision.remaining, wait: decision.wait,
            until: now + (decision.isAdmitted ? Self.leaseLifetime : decision.wait))
        var taken = 0
        return leases.update(key, now: now) { held in
            guard let previous = held, previous.admissions > 0, previous.until > now else {
                held = lease
                return decision
            }
            // An ask that gave admissions back ran beside another: what each was granted adds up,
            // ending with the earliest lease; and one refused meanwhile is admitted from the other's.
            guard lease.admissions > 0 else { return Self.take(from: &held, now: now, unused: &taken) ?? decision }
            held = Lease(admissions: previous.admissions + lease.admissions, remaining: lease.remaining, wait: lease.wait, until: previous.until)
            return decision
        }
    }

    /// Runs the script on the state named `name`: the decision, and Redis's time in microseconds.
    func ask(
        _ name: String, rate: GenericCellRate, wanted: Int, returned: Int = 0
    ) async throws(RedisError) -> (decision: RateLimitDecision, redisNow: Int64) {
        let reply = try await client.evaluate(
            Self.script, keys: [name],
            arguments: [String(rate.interval), String(rate.capacity), String(wanted), String(returned)].map { Array($0.utf8) })
        guard case .array(let values) = reply, values.count == 5, case .integer(let granted) = values[0], case .integer(let remaining) = values[1],
            case .integer(let wait) = values[2], case .integer(let stored) = values[3], case .integer(let redisNow) = values[4]
        else { throw .protocolViolation(reason: "the rate limit script answered \(reply)") }
        let decision = RateLimitDecision(isAdmitted: granted > 0, stored: stored, remaining: Int(remaining), wait: wait, granted: Int(granted))
        return (decision, redisNow)
    }

    var keyCount: Int { leases.count + fallback.keyCount }

    /// The key name of `key` on `route`: the prefix and a SHA-256, so that neither a subject nor an
    /// address appears in Redis's key space, and replicas agree on it whatever their route tables.
    static func name(of key: RateLimitKey, route: String) -> String {
        // Appended piece by piece: interpolating the caller would describe it through its
        // conformance, looked up at run time, on every decision that reaches Redis.
        var text = Array(route.utf8)
        switch key.caller {
        case .subject(let subject):
            text += Array("\nsub:".utf8)
            text += Array(subject.utf8)
        case .address(let address):
            text += Array("\nip:".utf8)
            text += Array(address.description.utf8)
        }
        return prefix + HexDigest.sha256(text)
    }

    /// The decision a held lease or refusal makes at `now`, or nil (and the lease dropped) when none
    /// is held or it has ended; an ended lease's admissions go to `unused`, to be given back.
    private static func take(from lease: inout Lease?, now: Int64, unused: inout Int) -> RateLimitDecision? {
        guard let held = lease else { return nil }
        guard held.until > now else {
            unused = held.admissions
            lease = nil
            return nil
        }
        guard held.admissions > 0 else {
            return RateLimitDecision(isAdmitted: false, stored: 0, remaining: 0, wait: held.until - now)
        }
        let left = held.admissions - 1
        lease = left == 0 ? nil : Lease(admissions: left, remaining: held.remaining, wait: held.wait, until: held.until)
        return RateLimitDecision(isAdmitted: true, stored: 0, remaining: held.remaining + left, wait: held.wait)
    }
}

extension RedisRateLimitStore {
    /// At most one ask to Redis per caller at a time on this replica, and the requests that wait
    /// for it: concurrent first requests of a caller then share one lease instead of racing for
    /// admissions, and a refusal that arrives before a grant cannot refuse a caller below its limit.
    final class AsksInFlight: Sendable {
        private let waiting = Mutex<[RateLimitKey: [CheckedContinuation<Bool, Never>]]>([:])

        /// True when no ask for `key` is in flight, which the caller now makes and must `end`.
        func begin(_ key: RateLimitKey) -> Bool {
            waiting.withLock { waiting in
                guard waiting[key] == nil else { return false }
                waiting[key] = []
                return true
            }
        }

        /// Returns once the ask for `key` in flight has ended (at once when none is): whether it
        /// reached Redis.
        func wait(for key: RateLimitKey) async -> Bool {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let waits = waiting.withLock { waiting in
                    guard waiting[key] != nil else { return false }
                    waiting[key]?.append(continuation)
                    return true
                }
                if !waits { continuation.resume(returning: true) }
            }
        }

        /// Ends the ask for `key`, its lease kept: those waiting try again, or decide alone when it
        /// did not reach Redis.
        func end(_ key: RateLimitKey, reachedRedis: Bool) {
            let waiters = waiting.withLock { $0.removeValue(forKey: key) } ?? []
            for waiter in waiters { waiter.resume(returning: reachedRedis) }
        }
    }
}
