import Testing

@testable import HTTP1Client

@Suite("ConnectionPool")
struct ConnectionPoolTests {
    typealias Pool = ConnectionPool<String, String>

    let start = ContinuousClock.now
    var later: ContinuousClock.Instant { start + .seconds(30) }

    func makePool(connections: Int = 2, waiters: Int = 2, idleTimeout: Duration = .seconds(60)) -> Pool {
        Pool(limits: .init(maximumConnections: connections, maximumWaiters: waiters, idleTimeout: idleTimeout))
    }

    @Test func connectsUntilTheMaximumThenAsksToWait() {
        var pool = makePool(connections: 2)
        let first = pool.checkout(now: start).checkout
        let second = pool.checkout(now: start).checkout
        let third = pool.checkout(now: start).checkout
        #expect(first.isConnect && second.isConnect)
        #expect(third.isMustWait)
        #expect(pool.openCount == 2)
    }

    @Test func reusesAReleasedConnection() {
        var pool = makePool()
        _ = pool.checkout(now: start)
        let release = pool.release("a", reusable: true, now: start)
        #expect(release.isParked)
        #expect(pool.idleCount == 1)
        let checkout = pool.checkout(now: start).checkout
        #expect(checkout.reused == "a")
        #expect(pool.openCount == 1)
    }

    @Test func reusesTheWarmestConnectionFirst() {
        var pool = makePool()
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start)
        _ = pool.release("cold", reusable: true, now: start)
        _ = pool.release("warm", reusable: true, now: start + .seconds(1))
        let checkout = pool.checkout(now: start + .seconds(2)).checkout
        #expect(checkout.reused == "warm")
    }

    @Test func closesAConnectionThatIsNotReusable() {
        var pool = makePool()
        _ = pool.checkout(now: start)
        let release = pool.release("a", reusable: false, now: start)
        #expect(release.closed == "a")
        #expect(pool.openCount == 0)
        #expect(pool.idleCount == 0)
    }

    @Test func handsAReleasedConnectionToTheFirstWaiter() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.enqueue("first", id: 1, deadline: later)
        _ = pool.enqueue("second", id: 2, deadline: later)
        let release = pool.release("a", reusable: true, now: start)
        #expect(release.handedOver?.connection == "a")
        #expect(release.handedOver?.waiter == "first")
        #expect(pool.waiterCount == 1)
        #expect(pool.idleCount == 0)
    }

    @Test func givesAWaiterTheSlotOfAClosedConnection() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.enqueue("w", id: 1, deadline: later)
        let release = pool.release("a", reusable: false, now: start)
        #expect(release.closedForWaiter?.connection == "a")
        #expect(release.closedForWaiter?.waiter == "w")
        #expect(pool.openCount == 1)
    }

    @Test func givesAWaiterTheSlotOfAFailedConnect() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.enqueue("w", id: 1, deadline: later)
        let handedToWaiter = pool.freeSlot()
        #expect(handedToWaiter.waiter == "w")
        #expect(pool.openCount == 1)
        let freed = pool.freeSlot()
        #expect(freed.waiter == nil)
        #expect(pool.openCount == 0)
    }

    @Test func refusesWaitersBeyondTheQueueLimit() {
        var pool = makePool(connections: 1, waiters: 1)
        _ = pool.checkout(now: start)
        let first = pool.enqueue("w1", id: 1, deadline: later)
        let second = pool.enqueue("w2", id: 2, deadline: later)
        #expect(first)
        #expect(!second)
    }

    @Test func removesACancelledWaiterOnce() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.enqueue("w1", id: 1, deadline: later)
        _ = pool.enqueue("w2", id: 2, deadline: later)
        let removed = pool.removeWaiter(id: 1)
        let removedAgain = pool.removeWaiter(id: 1)
        #expect(removed == "w1")
        #expect(removedAgain == nil)
        let release = pool.release("a", reusable: true, now: start)
        #expect(release.handedOver?.waiter == "w2")
    }

    @Test func expiresWaitersPastTheirDeadline() {
        var pool = makePool(connections: 1, waiters: 3)
        _ = pool.checkout(now: start)
        _ = pool.enqueue("late", id: 1, deadline: start + .seconds(5))
        _ = pool.enqueue("early", id: 2, deadline: start + .seconds(1))
        _ = pool.enqueue("latest", id: 3, deadline: start + .seconds(9))
        #expect(pool.earliestWaiterDeadline == start + .seconds(1))
        let none = pool.removeWaiters(expiredBy: start)
        #expect(none == [])
        let expired = pool.removeWaiters(expiredBy: start + .seconds(5))
        #expect(expired == ["late", "early"])
        #expect(pool.earliestWaiterDeadline == start + .seconds(9))
        let release = pool.release("a", reusable: true, now: start)
        #expect(release.handedOver?.waiter == "latest")
        #expect(pool.earliestWaiterDeadline == nil)
    }

    @Test func closesIdleConnectionsPastTheIdleTimeout() {
        var pool = makePool(connections: 3, idleTimeout: .seconds(10))
        for _ in 0..<3 { _ = pool.checkout(now: start) }
        _ = pool.release("old", reusable: true, now: start)
        _ = pool.release("also-old", reusable: true, now: start + .seconds(1))
        _ = pool.release("fresh", reusable: true, now: start + .seconds(8))
        let result = pool.checkout(now: start + .seconds(11))
        #expect(result.expired == ["old", "also-old"])
        #expect(result.checkout.reused == "fresh")
        #expect(pool.openCount == 1)
    }

    @Test func connectsAnewWhenEveryIdleConnectionExpired() {
        var pool = makePool(connections: 1, idleTimeout: .seconds(10))
        _ = pool.checkout(now: start)
        _ = pool.release("a", reusable: true, now: start)
        let result = pool.checkout(now: start + .seconds(10))
        #expect(result.expired == ["a"])
        #expect(result.checkout.isConnect)
        #expect(pool.openCount == 1)
    }

    @Test func aFreshCheckoutClosesTheColdestIdleConnectionWhenFull() {
        var pool = makePool(connections: 2)
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start)
        _ = pool.release("cold", reusable: true, now: start)
        let result = pool.checkout(now: start, fresh: true)
        #expect(result.expired == ["cold"])
        #expect(result.checkout.isConnect)
        #expect(pool.openCount == 2)
        #expect(pool.idleCount == 0)
    }

    @Test func aFreshCheckoutConnectsBesideIdleConnectionsWhenThereIsRoom() {
        var pool = makePool(connections: 2)
        _ = pool.checkout(now: start)
        _ = pool.release("idle", reusable: true, now: start)
        let result = pool.checkout(now: start, fresh: true)
        #expect(result.expired == [])
        #expect(result.checkout.isConnect)
        #expect(pool.idleCount == 1)
    }

    @Test func aFreshCheckoutWaitsWhenEverySlotIsLentOut() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        let result = pool.checkout(now: start, fresh: true)
        #expect(result.checkout.isMustWait)
    }

    @Test func shutDownFailsWaitersAndClosesConnectionsAsTheyReturn() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.enqueue("w", id: 1, deadline: later)
        let closing = pool.shutDown()
        #expect(closing.idle == [])
        #expect(closing.waiters == ["w"])
        let release = pool.release("lent", reusable: true, now: start)
        #expect(release.closed == "lent")
        let checkout = pool.checkout(now: start).checkout
        #expect(checkout.isShutDown)
        #expect(pool.openCount == 0)
    }

    @Test func shutDownReturnsIdleConnections() {
        var pool = makePool(connections: 2)
        _ = pool.checkout(now: start)
        _ = pool.release("idle", reusable: true, now: start)
        let closing = pool.shutDown()
        #expect(closing.idle == ["idle"])
        #expect(pool.openCount == 0)
    }
}

extension ConnectionPool.Checkout {
    var isConnect: Bool { if case .connect = self { true } else { false } }
    var isMustWait: Bool { if case .mustWait = self { true } else { false } }
    var isShutDown: Bool { if case .shutDown = self { true } else { false } }
    var reused: Connection? { if case .reuse(let connection) = self { connection } else { nil } }
}

extension ConnectionPool.Release {
    var isParked: Bool { if case .parked = self { true } else { false } }
    var closed: Connection? { if case .close(let connection) = self { connection } else { nil } }
    var handedOver: (connection: Connection, waiter: Waiter)? {
        if case .handOver(let connection, let waiter) = self { (connection, waiter) } else { nil }
    }
    var closedForWaiter: (connection: Connection, waiter: Waiter)? {
        if case .closeAndConnect(let connection, let waiter) = self { (connection, waiter) } else { nil }
    }
}

extension ConnectionPool.FreedSlot {
    var waiter: Waiter? { if case .connect(let waiter) = self { waiter } else { nil } }
}
