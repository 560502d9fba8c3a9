import Synchronization

/// Counts the attempts one call makes on the wire, retries included, for the caller's log: a
/// request that carries one (`Request.attemptCounter`) has it counted once per attempt that
/// passed the cache, the circuit breaker and the concurrency limit.
public final class AttemptCounter: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// The attempts made so far: 0 when the call was answered without one (a cached answer, an
    /// open circuit).
    public var attempts: Int { count.load(ordering: .relaxed) }

    func recordAttempt() {
        count.add(1, ordering: .relaxed)
    }
}
