/// Where each caller's state is kept and decided on: the seam between the arithmetic and its
/// storage. The local store keeps it in this process and never suspends; the store shared by
/// replicas (`RedisRateLimitStore`) runs the same `GenericCellRate` arithmetic atomically in
/// Redis, in Redis's time, and suspends for that round trip when it must.
protocol RateLimitStore: Sendable {
    /// Decides on one request of `key` under `rate` and keeps the state that results.
    ///
    /// - Parameter route: the route's label, which names the route to other replicas (`key.route`
    ///   is its number in this process's table only).
    func decide(_ key: RateLimitKey, under rate: GenericCellRate, route: String) async -> RateLimitDecision

    /// How many keys are held now, for `/metrics`.
    var keyCount: Int { get }
}
