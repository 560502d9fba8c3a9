import NetworkRuntime
import Synchronization

/// The open connections of a server and their tasks: it admits each new one within the server's
/// and its client's caps, so shutdown can close idle ones, wait for busy ones and cancel whatever
/// outlives the grace period.
///
/// At a cap it first reclaims a kept-alive connection (one that answered a request and waits
/// for another), as nginx reuses its idle keep-alive connections when it runs out: the client's
/// own oldest one at the client's cap, the server's oldest one at the server's cap. Only when
/// none waits is the new connection refused, so idle connections never lock busy clients out.
final class ConnectionRegistry: Sendable {
    /// What became of a new connection.
    enum Admission {
        /// It runs in this task, in this phase.
        case started(Task<Void, Never>, ConnectionPhase)
        /// It is over a cap and no kept-alive connection could make room: answer 503 and close.
        case refused
        /// Shutdown has begun: close it.
        case draining
    }

    /// The caps connections are admitted within.
    struct Limits {
        /// Connections open at once, all clients together.
        let maximumConnections: Int
        /// Connections one client may hold open; nil for no cap.
        let maximumPerClient: Int?
    }

    /// After a search of the whole server for a kept-alive connection to reclaim found none, how
    /// long the next connections over the cap are refused without searching again, so that a
    /// flood at the cap costs one search per period rather than one per connection.
    private static let fruitlessSearchPause = Duration.milliseconds(10)

    private struct Entry {
        let phase: ConnectionPhase
        let task: Task<Void, Never>
        /// The client it counts against, nil when it counts against none.
        let client: IPAddress?
        /// Claimed to make room for another: no longer counted, though its task may still be ending.
        var isReclaimed = false
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var clients = ClientConnectionTable()
        /// Entries reclaimed whose task has not ended yet.
        var reclaiming = 0
        /// Until when a connection over the server's cap is refused without a search.
        var searchPausedUntil: ContinuousClock.Instant?
        var isDraining = false
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []

        /// Connections counted against the server's cap.
        var counted: Int { entries.count - reclaiming }

        /// Claims the oldest kept-alive connection of `ids` (oldest first); its task, to cancel outside the lock.
        mutating func reclaimOldest(of ids: [UInt64]) -> Task<Void, Never>? {
            guard let id = ids.first(where: { entries[$0]?.phase.claimIfKeptAlive() == true }) else { return nil }
            return reclaim(id)
        }

        /// Claims the server's oldest kept-alive connection, unless a recent search found none.
        mutating func reclaimOldestOfAll() -> Task<Void, Never>? {
            if let searchPausedUntil, ContinuousClock.now < searchPausedUntil { return nil }
            // A candidate can start a request between the look and the claim: look again then.
            for _ in 0..<3 {
                var oldest: UInt64?
                for (id, entry) in entries where !entry.isReclaimed && entry.phase.isKeptAlive && id < oldest ?? .max {
                    oldest = id
                }
                guard let oldest else { break }
                if entries[oldest]?.phase.claimIfKeptAlive() == true { return reclaim(oldest) }
            }
            searchPausedUntil = .now + ConnectionRegistry.fruitlessSearchPause
            return nil
        }

        private mutating func reclaim(_ id: UInt64) -> Task<Void, Never>? {
            guard let entry = entries[id] else { return nil }
            entries[id]?.isReclaimed = true
            reclaiming += 1
            if let client = entry.client { clients.remove(id, of: client) }
            return entry.task
        }
    }

    private let state = Mutex(State())

    /// Runs `connection` in a new task on `loop` (its executor), counted against `client` (nil:
    /// against no client), unless a cap refuses it or draining has begun. At a cap, the
    /// kept-alive connection reclaimed to make room is cancelled, which closes it.
    func start(
        on loop: EventLoop,
        client: IPAddress?,
        within limits: Limits,
        _ connection: @escaping @Sendable (ConnectionPhase) async -> Void
    ) -> (admission: Admission, reclaimed: Bool) {
        // The task is created under the lock so its own removal cannot overtake its insertion.
        let (admission, reclaimed) = state.withLock { state -> (Admission, Task<Void, Never>?) in
            guard !state.isDraining else { return (.draining, nil) }
            var reclaimed: Task<Void, Never>?
            if let client, let maximum = limits.maximumPerClient, case let ids = state.clients.connections(of: client), ids.count >= maximum {
                reclaimed = state.reclaimOldest(of: ids)
                guard reclaimed != nil else { return (.refused, nil) }
            } else if state.counted >= limits.maximumConnections {
                reclaimed = state.reclaimOldestOfAll()
                guard reclaimed != nil else { return (.refused, nil) }
            }
            let id = state.nextID
            state.nextID += 1
            let phase = ConnectionPhase()
            let task = Task(executorPreference: loop) {
                await connection(phase)
                self.remove(id)
            }
            state.entries[id] = Entry(phase: phase, task: task, client: client)
            if let client { state.clients.add(id, of: client) }
            return (.started(task, phase), reclaimed)
        }
        reclaimed?.cancel()
        return (admission, reclaimed != nil)
    }

    /// Refuses new connections from now on.
    func beginDraining() {
        state.withLock { $0.isDraining = true }
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
            if let entry = state.entries.removeValue(forKey: id) {
                if entry.isReclaimed {
                    state.reclaiming -= 1
                } else if let client = entry.client {
                    state.clients.remove(id, of: client)
                }
            }
            guard state.entries.isEmpty else { return [] }
            defer { state.emptyWaiters = [] }
            return state.emptyWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
