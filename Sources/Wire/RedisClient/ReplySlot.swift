import Synchronization

/// Where one pipelined command's reply meets the task awaiting it, whichever comes first.
final class ReplySlot: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Result<RESPValue, RedisError>, Never>)
        case done(Result<RESPValue, RedisError>)
    }

    private let state = Mutex(State.empty)

    /// Delivers the outcome; later calls do nothing.
    func resume(with result: Result<RESPValue, RedisError>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<RESPValue, RedisError>, Never>? in
            switch state {
            case .empty:
                state = .done(result)
                return nil
            case .waiting(let continuation):
                state = .done(result)
                return continuation
            case .done:
                return nil
            }
        }
        waiter?.resume(returning: result)
    }

    /// The outcome, once delivered.
    func wait() async -> Result<RESPValue, RedisError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<RESPValue, RedisError>? in
                if case .done(let result) = state { return result }
                state = .waiting(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
