/// A task suspended until a file descriptor is ready in one direction.
struct Waiter {
    /// Identifies this wait, so a late timer or cancellation cannot resume a newer one.
    let token: UInt64
    let continuation: UnsafeContinuation<WaitOutcome, Never>
    let hasDeadline: Bool
}
