/// The ids of tokens already accepted once (a logout token's `iss` and `jti`), each remembered until
/// its token expires, so that a replay is refused while the token would still pass every other check.
///
/// Bounded: at `capacity`, the expired entries go first, then the oldest; a flood of valid tokens
/// (which only the provider can sign) costs memory up to the bound and nothing more. Pure: the clock
/// is an argument.
public struct UsedTokenIDs: Sendable {
    /// The most ids kept.
    public let capacity: Int
    private var expiries: [String: Double] = [:]
    /// Ids in the order they were first used; entries before `head` are gone.
    private var order: [String] = []
    private var head = 0

    /// A memory of at most `capacity` ids.
    public init(capacity: Int) {
        precondition(capacity > 0, "a memory of no token keeps nothing")
        self.capacity = capacity
    }

    /// How many ids are kept now, expired ones not yet dropped included.
    public var count: Int { expiries.count }

    /// Records the first use of `id` of `issuer`, kept until `expiresAt`; false when it was used
    /// before and has not expired at `now`: a replay.
    public mutating func recordFirstUse(_ id: String, issuer: String, expiresAt: Double, now: Double) -> Bool {
        let key = issuer + "\u{0}" + id
        if let expiry = expiries[key], expiry > now { return false }
        if expiries[key] == nil {
            if expiries.count >= capacity { dropExpired(now: now) }
            while expiries.count >= capacity { dropOldest() }
            order.append(key)
        }
        expiries[key] = expiresAt
        return true
    }

    /// Drops every expired id, and compacts the order.
    private mutating func dropExpired(now: Double) {
        expiries = expiries.filter { $0.value > now }
        order = order[head...].filter { expiries[$0] != nil }
        head = 0
    }

    private mutating func dropOldest() {
        expiries[order[head]] = nil
        head += 1
        if head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
