import Synchronization

/// The per-upstream allowance of retries: each call earns a fraction of one, each retry spends one.
///
/// This keeps retries to a bounded share of traffic when an upstream fails for everyone at once.
final class RetryBudget: Sendable {
    private let balance: Mutex<Double>
    private let ratio: Double
    private let capacity: Double

    init(ratio: Double, capacity: Double) {
        self.ratio = ratio
        self.capacity = capacity
        balance = Mutex(capacity)
    }

    func recordCall() {
        balance.withLock { $0 = min(capacity, $0 + ratio) }
    }

    /// Spends one retry if the balance allows it.
    func spendRetry() -> Bool {
        balance.withLock { balance in
            guard balance >= 1 else { return false }
            balance -= 1
            return true
        }
    }
}
