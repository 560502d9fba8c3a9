import HTTPBasics

/// The bookkeeping of one origin's keep-alive connections: which are idle, how many are open,
/// and who waits for one.
///
/// It performs no I/O and reads no clock: every event passes the current instant in, and every
/// answer says what the caller must do (connect, close, resume a waiter). That keeps the lock
/// around it short and lets tests drive it without sockets or sleeps.
///
/// `Connection` is what the pool lends out; `Waiter` is how a suspended caller is resumed.
struct ConnectionPool<Connection, Waiter> {
    /// The bounds a pool keeps.
    struct Limits: Sendable {
        /// Open connections at most: idle, lent out and being connected together.
        var maximumConnections: Int
        /// Callers queued for a connection at most; beyond it a checkout fails at once.
        var maximumWaiters: Int
        /// How long a connection may sit idle before it is closed instead of reused.
        var idleTimeout: Duration
    }

    /// What a caller asking for a connection must do next.
    enum Checkout {
        /// Send on this idle connection.
        case reuse(Connection)
        /// Open a new connection: a slot is reserved for it, to be given back with
        /// `release(_:reusable:now:)` or `freeSlot()`.
        case connect
        /// Every slot is lent out: queue with `enqueue(_:id:)` or give up.
        case mustWait
        /// The pool is shut down.
        case shutDown
    }

    /// What the caller giving a connection back must do next.
    enum Release {
        /// Nothing: the connection now waits idle in the pool.
        case parked
        /// Resume this waiter with this connection.
        case handOver(Connection, to: Waiter)
        /// Close the connection; nobody needs it.
        case close(Connection)
        /// Close the connection and resume this waiter with the freed slot, so it connects anew.
        case closeAndConnect(Connection, for: Waiter)
    }

    /// What the caller must do once a slot (a failed connect, a closed connection) is freed.
    enum FreedSlot {
        case none
        /// Resume this waiter with the slot, so it connects anew.
        case connect(for: Waiter)
    }

    private struct IdleConnection {
        var connection: Connection
        var idleSince: ContinuousClock.Instant
    }

    private struct QueuedWaiter {
        var waiter: Waiter
        var deadline: ContinuousClock.Instant
    }

    let limits: Limits
    /// Oldest first, so expired connections are at the front and the warmest one is reused.
    private var idle: [IdleConnection] = []
    /// First come, first served.
    private var queue = WaiterQueue<Int, QueuedWaiter>()
    /// Idle, lent out and being connected.
    private(set) var openCount = 0
    private(set) var isShutDown = false

    init(limits: Limits) {
        self.limits = limits
    }

    var idleCount: Int { idle.count }
    var waiterCount: Int { queue.count }

    /// Lends the warmest idle connection or reserves a slot for a new one.
    ///
    /// With `fresh`, it reserves a slot even when idle connections exist, closing the coldest
    /// one to make room if needed: for a retry that must not land on another stale connection.
    /// Idle connections older than the idle timeout are taken out and returned in `expired`,
    /// for the caller to close.
    mutating func checkout(now: ContinuousClock.Instant, fresh: Bool = false) -> (checkout: Checkout, expired: [Connection]) {
        guard !isShutDown else { return (.shutDown, []) }
        var expired = removeExpired(now: now)
        if fresh, openCount >= limits.maximumConnections, !idle.isEmpty {
            expired.append(idle.removeFirst().connection)
            openCount -= 1
        }
        if !fresh, let warmest = idle.popLast() {
            return (.reuse(warmest.connection), expired)
        }
        if openCount < limits.maximumConnections {
            openCount += 1
            return (.connect, expired)
        }
        return (.mustWait, expired)
    }

    /// Queues `waiter` under `id` until a connection or a slot is freed, or until `deadline`
    /// (see `removeWaiters(expiredBy:)`); returns false when the queue is full.
    mutating func enqueue(_ waiter: Waiter, id: Int, deadline: ContinuousClock.Instant) -> Bool {
        guard queue.count < limits.maximumWaiters else { return false }
        queue.append(QueuedWaiter(waiter: waiter, deadline: deadline), id: id)
        return true
    }

    /// The soonest deadline of a queued waiter, for the timer that expires them.
    var earliestWaiterDeadline: ContinuousClock.Instant? {
        queue.waiters.lazy.map(\.deadline).min()
    }

    /// Takes out the waiters whose deadline has passed, for the caller to fail.
    mutating func removeWaiters(expiredBy now: ContinuousClock.Instant) -> [Waiter] {
        queue.removeAll { $0.deadline <= now }.map(\.waiter)
    }

    /// Takes back a lent connection. `reusable` is true only after a complete response on a
    /// connection both sides keep alive; otherwise the connection is to be closed.
    mutating func release(_ connection: Connection, reusable: Bool, now: ContinuousClock.Instant) -> Release {
        guard reusable, !isShutDown else {
            if let next = dequeueWaiter() {
                return .closeAndConnect(connection, for: next)
            }
            openCount -= 1
            return .close(connection)
        }
        if let next = dequeueWaiter() {
            return .handOver(connection, to: next)
        }
        idle.append(IdleConnection(connection: connection, idleSince: now))
        return .parked
    }

    /// Gives back a slot whose connection could not be opened, or whose idle connection was
    /// found closed by the peer and discarded by the caller.
    mutating func freeSlot() -> FreedSlot {
        if let next = dequeueWaiter() {
            return .connect(for: next)
        }
        openCount -= 1
        return .none
    }

    /// Takes a queued waiter out (its task was cancelled or timed out). Returns nil when it
    /// was already resumed, which then owns whatever it was handed.
    mutating func removeWaiter(id: Int) -> Waiter? {
        queue.remove(id: id)?.waiter
    }

    /// Closes the pool: returns the idle connections to close and the waiters to fail. Lent
    /// connections are closed as they come back.
    mutating func shutDown() -> (idle: [Connection], waiters: [Waiter]) {
        isShutDown = true
        let closing = idle.map(\.connection)
        openCount -= idle.count
        idle.removeAll()
        let failing = queue.removeAll { _ in true }.map(\.waiter)
        return (closing, failing)
    }

    private mutating func dequeueWaiter() -> Waiter? {
        queue.popFirst()?.waiter
    }

    private mutating func removeExpired(now: ContinuousClock.Instant) -> [Connection] {
        let expiredCount = idle.prefix { now - $0.idleSince >= limits.idleTimeout }.count
        guard expiredCount > 0 else { return [] }
        let expired = idle[..<expiredCount].map(\.connection)
        idle.removeFirst(expiredCount)
        openCount -= expiredCount
        return expired
    }
}
