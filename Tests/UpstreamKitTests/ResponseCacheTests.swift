import HTTPBasics
import Testing
@testable import UpstreamKit

/// The store: bounded in bytes, least recently used evicted first, partitions and credentials apart.
@Suite struct ResponseCacheTests {
    static let request = CachePolicyTests.request()

    static func key(_ target: String, partition: String = "a") -> ResponseCache.Key {
        ResponseCache.Key(partition: partition, origin: CachePolicyTests.origin, target: target)
    }

    static func stored(bytes: Int) -> StoredResponse {
        StoredResponse(response: Response(status: .ok, body: [UInt8](repeating: 0, count: bytes)), requestTime: 0, responseTime: 0)
    }

    func isStored(_ cache: ResponseCache, _ target: String, credentials: String = "", partition: String = "a") -> Bool {
        if case .stored = cache.lookup(Self.key(target, partition: partition), credentials: credentials, request: Self.request) { return true }
        return false
    }

    @Test func evictsTheLeastRecentlyUsedAnswersToStayWithinItsBytes() {
        let cache = ResponseCache(maximumBytes: 4000, maximumEntryBytes: 2000)
        for target in ["/1", "/2", "/3"] { cache.store(Self.stored(bytes: 1000), at: Self.key(target), credentials: "", request: Self.request) }
        #expect(isStored(cache, "/1"))  // now the most recent
        cache.store(Self.stored(bytes: 1000), at: Self.key("/4"), credentials: "", request: Self.request)
        #expect(!isStored(cache, "/2"))
        #expect(isStored(cache, "/1") && isStored(cache, "/3") && isStored(cache, "/4"))
        #expect(cache.bytes <= 4000)
        #expect(cache.usage(of: "a").evictions == 1)
        #expect(cache.usage(of: "a").entries == 3)
    }

    @Test func refusesAnAnswerLargerThanOneEntryMayBe() {
        let cache = ResponseCache(maximumBytes: 100_000, maximumEntryBytes: 2000)
        #expect(!cache.store(Self.stored(bytes: 5000), at: Self.key("/big"), credentials: "", request: Self.request))
        #expect(!isStored(cache, "/big"))
        #expect(cache.bytes == 0)
    }

    @Test func keepsPartitionsAndCredentialsApart() {
        let cache = ResponseCache(maximumBytes: 100_000, maximumEntryBytes: 10_000)
        cache.store(Self.stored(bytes: 10), at: Self.key("/x"), credentials: "authorization:Bearer A\n", request: Self.request)
        #expect(isStored(cache, "/x", credentials: "authorization:Bearer A\n"))
        #expect(!isStored(cache, "/x", credentials: "authorization:Bearer B\n"))
        #expect(!isStored(cache, "/x"))
        #expect(!isStored(cache, "/x", credentials: "authorization:Bearer A\n", partition: "b"))
    }

    @Test func invalidationForgetsEveryVariantOfAURL() {
        let cache = ResponseCache(maximumBytes: 100_000, maximumEntryBytes: 10_000)
        cache.store(Self.stored(bytes: 10), at: Self.key("/x"), credentials: "", request: Self.request)
        cache.store(Self.stored(bytes: 10), at: Self.key("/x"), credentials: "cookie:a\n", request: Self.request)
        cache.invalidate(Self.key("/x"))
        #expect(!isStored(cache, "/x") && !isStored(cache, "/x", credentials: "cookie:a\n"))
        #expect(cache.bytes == 0 && cache.usage(of: "a").entries == 0)
    }

    @Test func aPassMarkerReplacesTheAnswerItFollows() {
        let cache = ResponseCache(maximumBytes: 100_000, maximumEntryBytes: 10_000)
        cache.store(Self.stored(bytes: 10), at: Self.key("/x"), credentials: "", request: Self.request)
        cache.markPass(at: Self.key("/x"), credentials: "", request: Self.request)
        guard case .pass = cache.lookup(Self.key("/x"), credentials: "", request: Self.request) else {
            Issue.record("expected a pass marker")
            return
        }
        cache.store(Self.stored(bytes: 10), at: Self.key("/x"), credentials: "", request: Self.request)
        #expect(isStored(cache, "/x"))
        #expect(cache.usage(of: "a").entries == 1)
    }
}
