/// Where each caller's state is kept and decided on: the seam between the arithmetic and its
/// storage. The local store keeps it in this process; a store shared by replicas would run the
/// same `GenericCellRate` arithmetic atomically, in its own time, per decision.
protocol RateLimitStore: Sendable {
    /// Decides on one request of `key` under `rate` and keeps the state that results.
    func decide(_ key: RateLimitKey, under rate: GenericCellRate) -> RateLimitDecision

    /// How many keys are held now, for `/metrics`.
    var keyCount: Int { get }
}
