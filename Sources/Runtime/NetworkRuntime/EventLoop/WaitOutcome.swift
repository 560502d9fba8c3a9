/// How a wait for readiness on a file descriptor ended.
enum WaitOutcome: Sendable {
    case ready
    case timedOut
    case cancelled
    case closed
}
