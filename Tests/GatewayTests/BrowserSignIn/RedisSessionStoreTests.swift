import BrowserSession
import GatewayTesting
import RedisClient
import Synchronization
import Testing

@testable import Gateway

/// Sessions shared by replicas through a real `redis-server` on loopback: two stores stand for two
/// replicas, each with its own client.
@Suite("Sessions in Redis", .enabled(if: RedisServer.isInstalled, "redis-server is not installed (apt-get install redis-server)"))
struct RedisSessionStoreTests {
    private static let key = try! SessionSealer.Key(parsing: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
    private static let lifetimes = SessionTable<SessionRecord>.Lifetimes(idle: 600, absolute: 3600)

    private static func replica(_ server: RedisServer, sealer: SessionSealer = SessionSealer(current: key)) async throws -> RedisSessionStore {
        RedisSessionStore(client: try await connected(server), sealer: sealer, lifetimes: lifetimes, lockLease: .seconds(2))
    }

    private static func connected(_ server: RedisServer) async throws -> RedisClient {
        let client = try RedisRateLimitStoreTests.client(server)
        #expect(await client.connect())
        return client
    }

    private static func record(_ id: String, subject: String = "alice", sid: String? = "sid-1", at now: Double = 1_000) -> SessionRecord {
        SessionRecord(
            id: id, subject: subject, providerSessionID: sid, claimsJSON: #"{"sub":"\#(subject)"}"#, idToken: "id-token",
            accessToken: "access-\(id)", accessTokenExpiresAt: now + 300, refreshToken: "refresh-\(id)", createdAt: now, lastSeenAt: now)
    }

    @Test("a session one replica made is read by another; Redis holds no id, token or claim in the clear")
    func shared() async throws {
        let server = try RedisServer()
        let (a, b) = (try await Self.replica(server), try await Self.replica(server))
        try await a.insert(Self.record("cookie-value-1"))
        let read = try await b.session("cookie-value-1", now: 1_010)
        #expect(read?.accessToken == "access-cookie-value-1")
        #expect(read?.lastSeenAt == 1_010)
        let inspector = try await Self.connected(server)
        guard case .array(let keys) = try await inspector.send(RedisCommand("KEYS", ["*"])) else { Issue.record("no keys"); return }
        for case .bulkString(let name) in keys {
            let key = String(decoding: name, as: UTF8.self)
            #expect(!key.contains("cookie-value") && !key.contains("alice"))
            guard case .simpleString("string") = try await inspector.send(RedisCommand("TYPE", [key])) else { continue }
            if let value = try await inspector.get(key) {
                let text = String(decoding: value, as: UTF8.self)
                #expect(!text.contains("access-") && !text.contains("refresh-") && !text.contains("alice"))
            }
        }
    }

    @Test("idle and absolute ends hold across replicas, and the record's expiry in Redis is the earlier one")
    func lifetimes() async throws {
        let server = try RedisServer()
        let (a, b) = (try await Self.replica(server), try await Self.replica(server))
        try await a.insert(Self.record("s"))
        #expect(try await b.session("s", now: 1_000 + 601) == nil, "idle past 600 s")
        try await a.insert(Self.record("t"))
        let inspector = try await Self.connected(server)
        guard case .integer(let ttl) = try await inspector.send(RedisCommand("PTTL", [RedisSessionStore.recordKey("t")])) else {
            Issue.record("no TTL")
            return
        }
        #expect(ttl > 590_000 && ttl <= 600_000)
        var old = Self.record("u")
        old.lastSeenAt = 1_000 + 3_500
        #expect(try await a.update(old) == false, "no such session: update does not create one")
    }

    @Test("logout on one replica ends the session on the other; a back-channel logout ends a user's sessions by sid or subject")
    func removal() async throws {
        let server = try RedisServer()
        let (a, b) = (try await Self.replica(server), try await Self.replica(server))
        try await a.insert(Self.record("s1"))
        #expect(try await b.remove("s1")?.refreshToken == "refresh-s1")
        #expect(try await a.session("s1", now: 1_001) == nil)
        try await a.insert(Self.record("s2", sid: "sid-A"))
        try await a.insert(Self.record("s3", sid: "sid-B"))
        try await a.insert(Self.record("s4", subject: "bob", sid: "sid-A"))
        #expect(try await b.removeAll(subject: "alice", providerSessionID: "sid-A") == 1)
        #expect(try await a.session("s2", now: 1_001) == nil)
        #expect(try await a.session("s4", now: 1_001) != nil)
        #expect(try await b.removeAll(subject: "alice", providerSessionID: nil) == 1)
        #expect(try await a.session("s3", now: 1_001) == nil)
        #expect(try await b.removeAll(subject: nil, providerSessionID: nil) == 0)
    }

    @Test("a logout token recorded by one replica is a replay at the other until it expires; a forgotten one is not")
    func logoutTokenReplays() async throws {
        let server = try RedisServer()
        let (a, b) = (try await Self.replica(server), try await Self.replica(server))
        #expect(try await a.recordLogoutToken("j1", issuer: "https://id.example", expiresAt: 1_120, now: 1_000))
        #expect(try await !b.recordLogoutToken("j1", issuer: "https://id.example", expiresAt: 1_120, now: 1_001))
        #expect(try await b.recordLogoutToken("j1", issuer: "https://other.example", expiresAt: 1_120, now: 1_001))
        let inspector = try await Self.connected(server)
        let key = RedisSessionStore.logoutTokenKey("j1", issuer: "https://id.example")
        guard case .integer(let milliseconds) = try await inspector.send(RedisCommand("PTTL", [key])) else { Issue.record("no PTTL"); return }
        #expect(milliseconds > 110_000 && milliseconds <= 120_000, "kept until the token's exp")
        await b.forgetLogoutToken("j1", issuer: "https://id.example")
        #expect(try await b.recordLogoutToken("j1", issuer: "https://id.example", expiresAt: 1_120, now: 1_002))
    }

    @Test("a record sealed with an unknown key, or written by anyone else, is no session")
    func foreignRecords() async throws {
        let server = try RedisServer()
        let other = SessionSealer(current: try SessionSealer.Key(parsing: "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA"))
        try await Self.replica(server, sealer: other).insert(Self.record("s"))
        let replica = try await Self.replica(server)
        #expect(try await replica.session("s", now: 1_001) == nil)
        let inspector = try await Self.connected(server)
        try await inspector.set(RedisSessionStore.recordKey("x"), to: Array("not a record".utf8), expiry: .seconds(60))
        #expect(try await replica.session("x", now: 1_001) == nil)
        #expect(try await Self.replica(server, sealer: SessionSealer(current: Self.key, previous: other.current)).session("s", now: 1_001) == nil,
            "the unknown record was dropped when read")
    }

    @Test("refresh locks: one holder at a time across two replicas, however many callers each has")
    func refreshLock() async throws {
        let server = try RedisServer()
        let (a, b) = (try await Self.replica(server), try await Self.replica(server))
        let inside = Inside()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                let store = index % 2 == 0 ? a : b
                group.addTask {
                    try await store.withRefreshLock("s") {
                        inside.counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try await Task.sleep(for: .milliseconds(5))
                        inside.counts.withLock { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.counts.withLock { $0.most } == 1)
    }

    /// How many callers hold the lock now, and the most at once.
    private final class Inside: Sendable {
        let counts = Mutex((now: 0, most: 0))
    }

    @Test("Redis down is Unavailable, not a signed-out browser")
    func down() async throws {
        let server = try RedisServer()
        let replica = try await Self.replica(server)
        try await replica.insert(Self.record("s"))
        server.stop()
        await #expect(throws: RedisSessionStore.Unavailable.self) { try await replica.session("s", now: 1_001) }
    }
}
