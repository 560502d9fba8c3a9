import Synchronization

/// Hands out a fixed number of requests to concurrent workers.
final class RequestCountdown: Sendable {
    private let remaining: Atomic<Int>

    init(_ count: Int) {
        remaining = Atomic(count)
    }

    /// Takes one request; false once all are taken.
    func take() -> Bool {
        remaining.subtract(1, ordering: .relaxed).newValue >= 0
    }
}
