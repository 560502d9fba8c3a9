@testable import HTTPServerCore
import Testing

@Suite("ConnectionPool")
struct ConnectionPoolTests {
    typealias Pool = ConnectionPool<String, String>

    let start = ContinuousClock.now

    func makePool(connections: Int = 2, waiters: Int = 2, idleTimeout: Duration = .seconds(60)) -> Pool {
        Pool(limits: .init(maximumConnections: connections, maximumWaiters: waiters, idleTimeout: idleTimeout))
    }

    @Test func connectsUntilTheMaximumThenAsksToWait() {
        var pool = makePool(connections: 2)
        #expect(pool.checkout(now: start).checkout.isConnect)
        #expect(pool.checkout(now: start).checkout.isConnect)
        #expect(pool.checkout(now: start).checkout.isMustWait)
        #expect(pool.openCount == 2)
    }

    @Test func reusesAReleasedConnection() {
        var pool = makePool()
        _ = pool.checkout(now: start)
        #expect(pool.release("a", reusable: true, now: start).isParked)
        #expect(pool.idleCount == 1)
        #expect(pool.checkout(now: start).checkout.reused == "a")
        #expect(pool.openCount == 1)
    }

    @Test func reusesTheWarmestConnectionFirst() {
        var pool = makePool()
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start)
        _ = pool.release("cold", reusable: true, now: start)
        _ = pool.release("warm", reusable: true, now: start + .seconds(1))
        #expect(pool.checkout(now: start + .seconds(2)).checkout.reused == "warm")
    }

    @Test func closesAConnectionThatIsNotReusable() {
        var pool = makePool()
        _ = pool.checkout(now: start)
        #expect(pool.release("a", reusable: false, now: start).closed == "a")
        #expect(pool.openCount == 0)
        #expect(pool.idleCount == 0)
    }

    @Test func handsAReleasedConnectionToTheFirstWaiter() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        #expect(pool.checkout(now: start, waiter: "first", waiterID: 1).checkout.isEnqueued)
        #expect(pool.checkout(now: start, waiter: "second", waiterID: 2).checkout.isEnqueued)
        let release = pool.release("a", reusable: true, now: start)
        #expect(release.handedOver?.connection == "a")
        #expect(release.handedOver?.waiter == "first")
        #expect(pool.waiterCount == 1)
        #expect(pool.idleCount == 0)
    }

    @Test func givesAWaiterTheSlotOfAClosedConnection() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start, waiter: "w", waiterID: 1)
        let release = pool.release("a", reusable: false, now: start)
        #expect(release.closedForWaiter?.connection == "a")
        #expect(release.closedForWaiter?.waiter == "w")
        #expect(pool.openCount == 1)
    }

    @Test func givesAWaiterTheSlotOfAFailedConnect() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start, waiter: "w", waiterID: 1)
        #expect(pool.freeSlot().waiter == "w")
        #expect(pool.openCount == 1)
        #expect(pool.freeSlot().waiter == nil)
        #expect(pool.openCount == 0)
    }

    @Test func refusesWaitersBeyondTheQueueLimit() {
        var pool = makePool(connections: 1, waiters: 1)
        _ = pool.checkout(now: start)
        #expect(pool.checkout(now: start, waiter: "w1", waiterID: 1).checkout.isEnqueued)
        #expect(pool.checkout(now: start, waiter: "w2", waiterID: 2).checkout.isExhausted)
    }

    @Test func removesACancelledWaiterOnce() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start, waiter: "w1", waiterID: 1)
        _ = pool.checkout(now: start, waiter: "w2", waiterID: 2)
        #expect(pool.removeWaiter(id: 1) == "w1")
        #expect(pool.removeWaiter(id: 1) == nil)
        #expect(pool.release("a", reusable: true, now: start).handedOver?.waiter == "w2")
    }

    @Test func closesIdleConnectionsPastTheIdleTimeout() {
        var pool = makePool(connections: 3, idleTimeout: .seconds(10))
        for _ in 0..<3 { _ = pool.checkout(now: start) }
        _ = pool.release("old", reusable: true, now: start)
        _ = pool.release("older-than-timeout-too", reusable: true, now: start + .seconds(1))
        _ = pool.release("fresh", reusable: true, now: start + .seconds(8))
        let result = pool.checkout(now: start + .seconds(11))
        #expect(result.expired == ["old", "older-than-timeout-too"])
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
        let result = pool.checkoutFresh(now: start)
        #expect(result.expired == ["cold"])
        #expect(result.checkout.isConnect)
        #expect(pool.openCount == 2)
        #expect(pool.idleCount == 0)
    }

    @Test func aFreshCheckoutWaitsWhenEverySlotIsLentOut() {
        var pool = makePool(connections: 1)
        _ = pool.checkout(now: start)
        #expect(pool.checkoutFresh(now: start).checkout.isMustWait)
        #expect(pool.checkoutFresh(now: start, waiter: "w", waiterID: 1).checkout.isEnqueued)
    }

    @Test func shutDownClosesIdleConnectionsFailsWaitersAndClosesReturns() {
        var pool = makePool(connections: 2)
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start)
        _ = pool.release("idle", reusable: true, now: start)
        _ = pool.checkout(now: start)
        _ = pool.checkout(now: start, waiter: "w", waiterID: 1)
        let closing = pool.shutDown()
        #expect(closing.idle == [])
        #expect(closing.waiters == ["w"])
        #expect(pool.release("idle", reusable: true, now: start).closed == "idle")
        #expect(pool.checkout(now: start).checkout.isShutDown)
    }

    @Test func shutDownReturnsIdleConnections() {
        var pool = makePool(connections: 2)
        _ = pool.checkout(now: start)
        _ = pool.release("idle", reusable: true, now: start)
        #expect(pool.shutDown().idle == ["idle"])
        #expect(pool.openCount == 0)
    }
}

extension ConnectionPool.Checkout {
    var isConnect: Bool { if case .connect = self { true } else { false } }
    var isMustWait: Bool { if case .mustWait = self { true } else { false } }
    var isEnqueued: Bool { if case .enqueued = self { true } else { false } }
    var isExhausted: Bool { if case .exhausted = self { true } else { false } }
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
