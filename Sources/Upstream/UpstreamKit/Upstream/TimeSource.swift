/// The clock that retry backoff, the circuit breaker and token expiry read, injectable so tests never sleep.
///
/// Per-attempt timeouts always use the real `ContinuousClock`: they guard against real hangs.
public struct TimeSource: Sendable {
    public var now: @Sendable () -> ContinuousClock.Instant
    public var sleep: @Sendable (Duration) async throws(UpstreamError) -> Void

    public init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (Duration) async throws(UpstreamError) -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// Real time: `ContinuousClock`, with cancellable sleeps that throw `.cancelled`.
    public static let continuous = TimeSource(
        now: { ContinuousClock.now },
        sleep: { duration throws(UpstreamError) in
            do {
                try await Task.sleep(for: duration)
            } catch {
                throw .cancelled
            }
        }
    )
}
