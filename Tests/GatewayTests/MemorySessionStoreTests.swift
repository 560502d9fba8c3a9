import BrowserSession
import Synchronization
import Testing

@testable import Gateway

@Suite struct MemorySessionStoreTests {
    static func record(_ id: String, subject: String = "u", sid: String? = nil, at now: Double = 1000) -> SessionRecord {
        SessionRecord(
            id: id, subject: subject, providerSessionID: sid, claimsJSON: "{}", idToken: "i", accessToken: "a", accessTokenExpiresAt: nil,
            refreshToken: "r", createdAt: now, lastSeenAt: now)
    }

    @Test func lifetimesUpdatesAndRemovals() async throws {
        let store = MemorySessionStore(lifetimes: .init(idle: 60, absolute: 600), capacity: 10)
        try await store.insert(Self.record("s1", subject: "alice", sid: "op-1"))
        try await store.insert(Self.record("s2", subject: "alice"))
        try await store.insert(Self.record("s3", subject: "bob"))
        #expect(try await store.session("s1", now: 1030)?.lastSeenAt == 1030)
        #expect(try await store.session("s2", now: 1061) == nil, "idle past 60 s")
        var refreshed = try #require(try await store.session("s1", now: 1031))
        refreshed.accessToken = "a2"
        #expect(try await store.update(refreshed))
        #expect(try await store.update(Self.record("gone")) == false)
        #expect(try await store.removeAll(subject: nil, providerSessionID: "op-1") == 1)
        #expect(try await store.removeAll(subject: nil, providerSessionID: nil) == 0)
        #expect(try await store.remove("s3")?.subject == "bob")
        #expect(store.count == 0)
    }

    @Test func theRefreshLockAdmitsOneHolderAtATime() async throws {
        let store = MemorySessionStore(lifetimes: .init(idle: 60, absolute: 600), capacity: 10)
        final class Holders: Sendable {
            let counts = Mutex((inside: 0, most: 0, runs: 0))
        }
        let holders = Holders()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.withRefreshLock("s1") {
                        holders.counts.withLock { counts in
                            counts.inside += 1
                            counts.most = max(counts.most, counts.inside)
                        }
                        await Task.yield()
                        holders.counts.withLock { counts in
                            counts.inside -= 1
                            counts.runs += 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let counts = holders.counts.withLock { $0 }
        #expect(counts.runs == 20)
        #expect(counts.most == 1)
        // Another session's lock is not this one's.
        try await store.withRefreshLock("s1") { try await store.withRefreshLock("s2") {} }
    }
}
