import NetworkRuntime
import Synchronization
import Testing

@testable import Gateway

/// The in-memory store with a clock the test moves: expiry and the bound on keys.
@Suite struct LocalRateLimitStoreTests {
    final class ManualClock: Sendable {
        let microseconds = Atomic<Int64>(1_000_000)
        func advance(seconds: Int64) { microseconds.add(seconds * 1_000_000, ordering: .relaxed) }
        var now: @Sendable () -> Int64 { { [self] in microseconds.load(ordering: .relaxed) } }
    }

    static func address(_ index: Int) -> RateLimitKey {
        RateLimitKey(route: 0, caller: .address(IPAddress("10.\(index >> 16 & 255).\(index >> 8 & 255).\(index & 255)")!))
    }

    @Test func callersAndRoutesAreCountedApart() {
        let clock = ManualClock()
        let store = LocalRateLimitStore(maximumKeys: 1024, now: clock.now)
        let rate = GenericCellRate(RateLimitPolicy(1, per: .hour))
        let alice = RateLimitKey(route: 0, caller: .subject("alice"))
        #expect(store.decide(alice, under: rate).isAdmitted)
        #expect(!store.decide(alice, under: rate).isAdmitted)
        #expect(store.decide(RateLimitKey(route: 0, caller: .subject("bob")), under: rate).isAdmitted)
        #expect(store.decide(RateLimitKey(route: 1, caller: .subject("alice")), under: rate).isAdmitted)
        #expect(store.decide(Self.address(1), under: rate).isAdmitted)
        #expect(store.keyCount == 4)
        clock.advance(seconds: 3600)
        #expect(store.decide(alice, under: rate).isAdmitted)
    }

    @Test func idleKeysAreSweptAsTheTableGrows() {
        let clock = ManualClock()
        let store = LocalRateLimitStore(maximumKeys: 1_000_000, now: clock.now)
        let rate = GenericCellRate(RateLimitPolicy(10, per: .second))
        for index in 0..<5000 { _ = store.decide(Self.address(index), under: rate) }
        #expect(store.keyCount == 5000, "nothing has expired yet")
        // A second later all of them hold nothing; new callers sweep them away shard by shard.
        clock.advance(seconds: 1)
        for index in 5000..<10000 { _ = store.decide(Self.address(index), under: rate) }
        #expect(store.keyCount < 6000)
    }

    @Test func aFloodOfAddressesStaysWithinTheBound() {
        let clock = ManualClock()
        let store = LocalRateLimitStore(maximumKeys: 1024, now: clock.now)
        let rate = GenericCellRate(RateLimitPolicy(1, per: .hour))
        let steady = RateLimitKey(route: 0, caller: .subject("steady"))
        for _ in 0..<3 { _ = store.decide(steady, under: GenericCellRate(RateLimitPolicy(1, per: .hour, burst: 3))) }
        for index in 0..<50_000 {
            _ = store.decide(Self.address(index), under: rate)
            if index % 997 == 0 { #expect(store.keyCount <= 1024) }
        }
        #expect(store.keyCount <= 1024)
        #expect(store.keyCount >= 1024 * 3 / 4, "only an eighth of a shard is freed at a time")
        // The caller with the most debt was kept: the flood did not reset its allowance.
        #expect(!store.decide(steady, under: GenericCellRate(RateLimitPolicy(1, per: .hour, burst: 3))).isAdmitted)
    }
}
