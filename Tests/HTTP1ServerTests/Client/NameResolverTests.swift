import Glibc
import Synchronization
import Testing

@testable import NetworkRuntime

@Suite("NameResolver")
struct NameResolverTests {
    static let first = [try! SocketAddress(host: "192.0.2.1", port: 80), try! SocketAddress(host: "192.0.2.2", port: 80)]
    static let second = [try! SocketAddress(host: "198.51.100.7", port: 80)]

    func addresses(_ resolver: NameResolver, _ host: String = "api.test", timeout: Duration = .seconds(5)) async throws(SocketError) -> [SocketAddress] {
        try await resolver.addresses(of: host, port: 80, on: .shared, deadline: .now + timeout)
    }

    @Test func usesIPLiteralsWithoutALookup() async throws {
        let lookup = ScriptedLookup(immediate: { .success(Self.first) })
        let resolver = lookup.resolver()
        #expect(try await addresses(resolver, "127.0.0.1").map(\.family) == [AF_INET])
        #expect(try await addresses(resolver, "::1").map(\.family) == [AF_INET6])
        #expect(try await addresses(resolver, "[::1]").map(\.family) == [AF_INET6])
        #expect(lookup.lookups == 0)
    }

    @Test func keepsEveryAddressAndRefreshesAfterTheInterval() async throws {
        let record = Mutex(Self.first)
        let lookup = ScriptedLookup(immediate: { .success(record.withLock { $0 }) })
        let resolver = lookup.resolver(refreshInterval: .seconds(30))
        #expect(try await addresses(resolver) == Self.first)
        record.withLock { $0 = Self.second }
        lookup.advanceClock(by: .seconds(29))
        #expect(try await addresses(resolver) == Self.first)
        #expect(lookup.lookups == 1)
        lookup.advanceClock(by: .seconds(1))
        // The stale answer serves the connect that starts the refresh; the next gets the new one.
        #expect(try await addresses(resolver) == Self.first)
        #expect(try await addresses(resolver) == Self.second)
        #expect(lookup.lookups == 2)
    }

    @Test func keepsTheLastAnswerWhenARefreshFails() async throws {
        let fails = Mutex(false)
        let lookup = ScriptedLookup(immediate: { fails.withLock { $0 } ? .failure(.unresolvable(host: "api.test")) : .success(Self.first) })
        let resolver = lookup.resolver(refreshInterval: .seconds(30))
        #expect(try await addresses(resolver) == Self.first)
        fails.withLock { $0 = true }
        lookup.advanceClock(by: .seconds(31))
        #expect(try await addresses(resolver) == Self.first)
        #expect(try await addresses(resolver) == Self.first)
        #expect(lookup.lookups == 2)
    }

    @Test func concurrentConnectsShareOneLookup() async throws {
        let lookup = ScriptedLookup()
        let resolver = lookup.resolver()
        let waiting = (0..<8).map { _ in Task { try await addresses(resolver) } }
        await lookup.waitForClockReads(8)
        lookup.answerPending(with: .success(Self.first))
        for task in waiting {
            #expect(try await task.value == Self.first)
        }
        #expect(lookup.lookups == 1)
    }

    @Test func aFailedFirstLookupFailsItsWaitersAndIsNotKept() async throws {
        let lookup = ScriptedLookup()
        let resolver = lookup.resolver()
        let waiting = Task { try await addresses(resolver) }
        await lookup.waitForClockReads(1)
        lookup.answerPending(with: .failure(.unresolvable(host: "api.test")))
        await #expect(throws: SocketError.unresolvable(host: "api.test")) { try await waiting.value }
        let retry = Task { try await addresses(resolver) }
        await lookup.waitForClockReads(2)
        lookup.answerPending(with: .success(Self.first))
        #expect(try await retry.value == Self.first)
        #expect(lookup.lookups == 2)
    }

    @Test func aCancelledConnectStopsWaitingAndTheLookupStillCompletes() async throws {
        let lookup = ScriptedLookup()
        let resolver = lookup.resolver()
        let waiting = Task { try await addresses(resolver) }
        await lookup.waitForClockReads(1)
        waiting.cancel()
        await #expect(throws: SocketError.cancelled) { try await waiting.value }
        lookup.answerPending(with: .success(Self.first))
        #expect(try await addresses(resolver) == Self.first)
        #expect(lookup.lookups == 1)
    }

    @Test func aWaitingConnectEndsAtItsDeadline() async throws {
        let lookup = ScriptedLookup()
        let resolver = lookup.resolver()
        await #expect(throws: SocketError.timedOut) { try await addresses(resolver, timeout: .milliseconds(20)) }
        lookup.answerPending(with: .success(Self.first))
    }

    @Test func aConnectThatGivesUpLetsGoOfItsWakeUpAtOnce() async throws {
        // While a lookup hangs, every connect that times out or is cancelled must release its
        // eventfd then, not when the lookup ends: otherwise a hung resolver piles up descriptors.
        let lookup = ScriptedLookup()
        let resolver = lookup.resolver()
        for _ in 0..<3 {
            await #expect(throws: SocketError.timedOut) { try await addresses(resolver, timeout: .milliseconds(1)) }
        }
        let cancelled = Task { try await addresses(resolver) }
        await lookup.waitForClockReads(4)
        cancelled.cancel()
        await #expect(throws: SocketError.cancelled) { try await cancelled.value }
        #expect(resolver.waitingConnects(to: "api.test", port: 80) == 0)
        #expect(lookup.lookups == 1)
        lookup.answerPending(with: .success(Self.first))
        #expect(try await addresses(resolver) == Self.first)
    }

    @Test func resolvesLocalhostOnABackgroundThread() async throws {
        let resolver = NameResolver()
        let addresses = try await resolver.addresses(of: "localhost", port: 80, on: .shared, deadline: .now + .seconds(5))
        #expect(addresses.contains { $0.family == AF_INET })
    }
}
