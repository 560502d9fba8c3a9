import Testing
@testable import Upstream

@Suite struct ConcurrencyLimitTests {
    @Test func waitsInOrderAndFailsFastBeyondTheQueue() async throws {
        let limit = ConcurrencyLimit(maximumRunning: 1, maximumWaiting: 1)
        try await limit.acquire()
        let waiter = Task {
            try await limit.acquire()
            limit.release()
        }
        while limit.waitingCount < 1 { await Task.yield() }
        await #expect(throws: UpstreamError.overloaded) { try await limit.acquire() }
        limit.release()
        try await waiter.value
        try await limit.acquire()
        limit.release()
    }

    @Test func tryAcquireTakesFreeSlotsAndNeverQueues() throws {
        let limit = ConcurrencyLimit(maximumRunning: 2, maximumWaiting: 1)
        #expect(try limit.tryAcquire())
        #expect(try limit.tryAcquire())
        // The queue has room, so the caller is told to wait rather than refused.
        #expect(try !limit.tryAcquire())
        #expect(limit.waitingCount == 0)
        limit.release()
        #expect(try limit.tryAcquire())
        limit.release()
        limit.release()
    }

    @Test func tryAcquireRefusesAtOnceWhenNoneMayWait() throws {
        let limit = ConcurrencyLimit(maximumRunning: 1, maximumWaiting: 0)
        #expect(try limit.tryAcquire())
        #expect(throws: UpstreamError.overloaded) { try limit.tryAcquire() }
        limit.release()
        #expect(try limit.tryAcquire())
        limit.release()
    }

    @Test func cancelledWaiterLeavesTheQueue() async throws {
        let limit = ConcurrencyLimit(maximumRunning: 1, maximumWaiting: 4)
        try await limit.acquire()
        let waiter = Task { try await limit.acquire() }
        while limit.waitingCount < 1 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: UpstreamError.cancelled) { try await waiter.value }
        #expect(limit.waitingCount == 0)
        limit.release()
        try await limit.acquire()
        limit.release()
    }

    @Test func aSlotFreedAfterTryAcquireIsTakenWithoutWaiting() async throws {
        let limit = ConcurrencyLimit(maximumRunning: 1, maximumWaiting: 1)
        #expect(try limit.tryAcquire())
        #expect(try !limit.tryAcquire())
        // Released before this caller queued: no waiter took the slot, so it must not wait for it.
        limit.release()
        try await limit.waitForSlot()
        #expect(limit.waitingCount == 0)
        #expect(try !limit.tryAcquire())
        limit.release()
    }

    @Test func aQueueFilledAfterTryAcquireRefusesTheLateWaiter() async throws {
        let limit = ConcurrencyLimit(maximumRunning: 1, maximumWaiting: 1)
        #expect(try limit.tryAcquire())
        #expect(try !limit.tryAcquire())
        let other = Task {
            try await limit.acquire()
            limit.release()
        }
        while limit.waitingCount < 1 { await Task.yield() }
        await #expect(throws: UpstreamError.overloaded) { try await limit.waitForSlot() }
        limit.release()
        try await other.value
    }
}
