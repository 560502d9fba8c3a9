import Synchronization

/// A lock per key, handed to waiting callers in arrival order: one refresh at a time per session
/// in this process, whichever store holds the sessions.
final class KeyedLock: Sendable {
    /// Keys whose lock is held, each with the callers queued for it.
    private let queues = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` holding `key`'s lock.
    func withLock<Result: Sendable>(_ key: String, _ body: @Sendable () async throws -> Result) async throws -> Result {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    /// Waits until this caller holds `key`'s lock.
    private func acquire(_ key: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let holds = queues.withLock { queues -> Bool in
                guard queues[key] != nil else {
                    queues[key] = []
                    return true
                }
                queues[key]?.append(continuation)
                return false
            }
            if holds { continuation.resume() }
        }
    }

    /// Hands `key`'s lock to the next caller queued, or frees it.
    private func release(_ key: String) {
        let next = queues.withLock { queues -> CheckedContinuation<Void, Never>? in
            guard var queued = queues[key], !queued.isEmpty else {
                queues[key] = nil
                return nil
            }
            let next = queued.removeFirst()
            queues[key] = queued
            return next
        }
        next?.resume()
    }
}
