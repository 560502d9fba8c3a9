/// Which readiness a task waits for.
enum IODirection: Sendable {
    case read
    case write
}
