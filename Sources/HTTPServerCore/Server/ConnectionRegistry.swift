import NetworkRuntime
import Synchronization

/// The open connections of a server and their tasks, so shutdown can close idle ones, wait for
/// busy ones and cancel whatever outlives the grace period.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let phase: ConnectionPhase
        let task: Task<Void, Never>
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var isDraining = false
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `connection` in a new task on `loop` (its executor), unless draining has begun;
    /// returns the task and the connection's phase.
    func start(
        on loop: EventLoop,
        _ connection: @escaping @Sendable (ConnectionPhase) async -> Void
    ) -> (task: Task<Void, Never>, phase: ConnectionPhase)? {
        // The task is created under the lock so its own removal cannot overtake its insertion.
        state.withLock { state in
            guard !state.isDraining else { return nil }
            let id = state.nextID
            state.nextID += 1
            let phase = ConnectionPhase()
            let task = Task(executorPreference: loop) {
                await connection(phase)
                self.remove(id)
            }
            state.entries[id] = Entry(phase: phase, task: task)
            return (task, phase)
        }
    }

    /// Refuses new connections and cancels those waiting for a request.
    func drain() {
        let idle = state.withLock { state -> [Task<Void, Never>] in
            state.isDraining = true
            return state.entries.values.compactMap { $0.phase.claimIfIdle() ? $0.task : nil }
        }
        for task in idle { task.cancel() }
    }

    /// Cancels every connection task, busy or not.
    func cancelAll() {
        let tasks = state.withLock { $0.entries.values.map(\.task) }
        for task in tasks { task.cancel() }
    }

    /// Returns once no connection is open.
    func waitUntilEmpty() async {
        await withCheckedContinuation { continuation in
            let isEmpty = state.withLock { state in
                if state.entries.isEmpty { return true }
                state.emptyWaiters.append(continuation)
                return false
            }
            if isEmpty { continuation.resume() }
        }
    }

    private func remove(_ id: UInt64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.entries[id] = nil
            guard state.entries.isEmpty else { return [] }
            defer { state.emptyWaiters = [] }
            return state.emptyWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
