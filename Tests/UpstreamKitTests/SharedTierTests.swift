import HTTPBasics
import Synchronization
import Testing

@testable import UpstreamKit

/// Two caches (two replicas' memories) behind one shared tier: what one stores the other serves,
/// never across credentials or varying fields, and a corrupt entry is a miss.
@Suite struct SharedTierTests {
    typealias Helpers = CachingTransportTests

    /// A tier in memory that keeps what it is given, with the lifetime it was given for.
    final class MemoryTier: SharedResponseTier {
        private let entries = Mutex<[String: (bytes: [UInt8], lifetime: Duration)]>([:])

        func load(_ key: String) async -> [UInt8]? { entries.withLock { $0[key]?.bytes } }

        func save(_ bytes: [UInt8], under key: String, lifetime: Duration) {
            entries.withLock { $0[key] = (bytes, lifetime) }
        }

        var all: [String: (bytes: [UInt8], lifetime: Duration)] { entries.withLock { $0 } }

        func digest(_ bytes: [UInt8]) -> [UInt8] { StoredResponseCodingTests.digest(bytes) }

        func corruptAll() {
            entries.withLock { entries in
                for key in entries.keys { entries[key]?.bytes = Array("garbage".utf8) }
            }
        }
    }

    /// A replica's cache: its own memory, the shared tier and clock.
    private static func replica(_ origin: Helpers.HeldOrigin, tier: MemoryTier, clock: Helpers.WallClock) -> CachingTransport {
        CachingTransport(
            wrapping: origin.transport, store: ResponseCache(maximumBytes: 1 << 20, maximumEntryBytes: 1 << 16), partition: "test",
            now: clock.now, sharedTier: tier)
    }

    @Test func anAnswerStoredByOneReplicaIsServedByAnotherWithoutTheUpstream() async throws {
        let origin = Helpers.HeldOrigin { _, _ throws(UpstreamError) in Helpers.answer("max-age=60, stale-if-error=30") }
        let (tier, clock) = (MemoryTier(), Helpers.WallClock())
        let first = Self.replica(origin, tier: tier, clock: clock)
        let second = Self.replica(origin, tier: tier, clock: clock)
        _ = try await first.send(Helpers.request())
        #expect(tier.all.count == 1)
        #expect(tier.all.values.first?.lifetime == .seconds(90))
        #expect(tier.all.keys.first?.hasPrefix("test\n") == true)
        clock.advance(by: 10)
        let shared = try await second.send(Helpers.request())
        #expect(origin.requests.count == 1)
        #expect(shared.cacheStatus?.outcome == .hit && shared.cacheStatus?.isFromSharedTier == true && shared.cacheStatus?.forwarded == false)
        #expect(shared.cacheStatus?.remainingFreshness == 50)
        #expect(shared.cacheStatus?.fieldValue(cache: "gateway") == "gateway; hit; ttl=50; detail=shared")
        #expect(shared.headers["Age"] == "10")
        // Now in the second replica's memory: the tier is not asked again.
        tier.corruptAll()
        #expect(try await second.send(Helpers.request()).cacheStatus?.isFromSharedTier == false)
        #expect(origin.requests.count == 1)
    }

    @Test func anotherCallersCredentialsOrVaryingFieldsAreAMiss() async throws {
        let origin = Helpers.HeldOrigin { _, count throws(UpstreamError) in
            Helpers.answer("public, max-age=60", body: "\(count)", extra: ["Vary": "Accept-Language"])
        }
        let (tier, clock) = (MemoryTier(), Helpers.WallClock())
        let first = Self.replica(origin, tier: tier, clock: clock)
        let second = Self.replica(origin, tier: tier, clock: clock)
        _ = try await first.send(Helpers.request(headers: ["Authorization": "Bearer alpha", "Accept-Language": "de"]))
        let other = try await second.send(Helpers.request(headers: ["Authorization": "Bearer beta", "Accept-Language": "de"]))
        #expect(String(decoding: other.body, as: UTF8.self) == "2")
        let same = try await Self.replica(origin, tier: tier, clock: clock).send(
            Helpers.request(headers: ["Authorization": "Bearer alpha", "Accept-Language": "de"]))
        #expect(String(decoding: same.body, as: UTF8.self) == "1")
        let otherLanguage = try await second.send(Helpers.request(headers: ["Authorization": "Bearer alpha", "Accept-Language": "en"]))
        #expect(String(decoding: otherLanguage.body, as: UTF8.self) == "3")
        // One variant per key in the tier: the latest stored replaces the one before.
        let replaced = try await Self.replica(origin, tier: tier, clock: clock).send(
            Helpers.request(headers: ["Authorization": "Bearer alpha", "Accept-Language": "de"]))
        #expect(String(decoding: replaced.body, as: UTF8.self) == "4")
    }

    @Test func aCorruptEntryIsAMiss() async throws {
        let origin = Helpers.HeldOrigin { _, count throws(UpstreamError) in Helpers.answer("max-age=60", body: "\(count)") }
        let (tier, clock) = (MemoryTier(), Helpers.WallClock())
        _ = try await Self.replica(origin, tier: tier, clock: clock).send(Helpers.request())
        tier.corruptAll()
        let answer = try await Self.replica(origin, tier: tier, clock: clock).send(Helpers.request())
        #expect(String(decoding: answer.body, as: UTF8.self) == "2")
        #expect(answer.cacheStatus?.outcome == .miss)
    }

    @Test func aStaleSharedEntryIsRevalidatedWithItsValidators() async throws {
        let origin = Helpers.HeldOrigin { request, _ throws(UpstreamError) in
            request.headers["If-None-Match"] == "\"v1\""
                ? Response(status: HTTPStatus(code: 304), headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"])
                : Helpers.answer("max-age=60, stale-while-revalidate=600", extra: ["ETag": "\"v1\""])
        }
        let (tier, clock) = (MemoryTier(), Helpers.WallClock())
        _ = try await Self.replica(origin, tier: tier, clock: clock).send(Helpers.request())
        clock.advance(by: 120)
        let revalidated = try await Self.replica(origin, tier: tier, clock: clock).send(Helpers.request())
        #expect(revalidated.cacheStatus?.outcome == .revalidated)
        #expect(String(decoding: revalidated.body, as: UTF8.self) == "answer")
        #expect(origin.requests.last?.headers["If-None-Match"] == "\"v1\"")
    }
}
