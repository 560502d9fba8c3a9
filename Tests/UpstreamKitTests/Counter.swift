import Synchronization

/// A shared count that closures can capture.
final class Counter: Sendable {
    private let count = Mutex(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.withLock { $0 += 1; return $0 }
    }

    var value: Int { count.withLock { $0 } }
}
