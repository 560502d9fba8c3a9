import GatewayTesting
import NetworkRuntime
import RedisClient
import Synchronization
import Testing

/// The client against a real `redis-server` on loopback.
@Suite("Redis client against redis-server", .enabled(if: RedisServer.isInstalled, "redis-server is not installed (apt-get install redis-server)"))
struct RedisServerTests {
    /// Transitions a client reported, in order.
    final class Transitions: Sendable {
        private let seen = Mutex<[RedisHealth.Transition]>([])
        var all: [RedisHealth.Transition] { seen.withLock { $0 } }
        func handler() -> RedisClient.TransitionHandler {
            { transition, _ in self.seen.withLock { $0.append(transition) } }
        }
    }

    private func client(
        _ server: RedisServer, scheme: String = "redis", credentials: String = "", database: Int = 0, transitions: Transitions? = nil,
        commandTimeout: Duration = .seconds(2)
    ) throws -> RedisClient {
        let url = try RedisURL(parsing: "\(scheme)://\(credentials)127.0.0.1:\(server.port)/\(database)")
        let configuration = RedisConfiguration(
            url: url, connectTimeout: .seconds(5), commandTimeout: commandTimeout, tls: try TLSContext.client(trustedCertificatesFile: Self.certificate("ca.pem")),
            initialBackoff: .milliseconds(1), maximumBackoff: .milliseconds(2))
        guard let transitions else { return RedisClient(configuration) }
        return RedisClient(configuration, onTransition: transitions.handler())
    }

    /// The absolute path of `name` in Tests/Certificates.
    private static func certificate(_ name: String) -> String {
        let tests = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2)
        return (tests + ["Certificates", Substring(name)]).joined(separator: "/")
    }

    /// The error `body` threw, or nil.
    private static func failure(_ body: () async throws(RedisError) -> Void) async -> RedisError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("PING, SET with an expiry, GET")
    func basics() async throws {
        let server = try RedisServer()
        let redis = try client(server)
        #expect(await redis.connect())
        try await redis.ping()
        #expect(try await redis.get("missing") == nil)
        try await redis.set("key", to: [0, 1, 2, 255], expiry: .seconds(60))
        #expect(try await redis.get("key") == [0, 1, 2, 255])
        let ttl = try await redis.send(RedisCommand("PTTL", ["key"]))
        guard case .integer(let milliseconds) = ttl else { throw RedisError.protocolViolation(reason: "\(ttl)") }
        #expect((59_000...60_000).contains(milliseconds))
    }

    @Test("an error reply fails its command only; the connection goes on")
    func errorReply() async throws {
        let server = try RedisServer()
        let redis = try client(server)
        #expect(await redis.connect())
        await #expect(throws: RedisError.self) { try await redis.send(RedisCommand("NOSUCHCOMMAND")) }
        try await redis.set("text", to: Array("abc".utf8), expiry: .seconds(10))
        let failure = await Self.failure { () throws(RedisError) in _ = try await redis.send(RedisCommand("INCR", ["text"])) }
        #expect(failure.map { "\($0)".hasPrefix("Redis error: ERR") } == true)
        try await redis.ping()
        #expect(redis.isUp)
    }

    @Test("concurrent commands are pipelined on one connection and each gets its own reply")
    func pipelining() async throws {
        let server = try RedisServer()
        let redis = try client(server)
        #expect(await redis.connect())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                group.addTask {
                    let key = "k\(index)"
                    try await redis.set(key, to: Array(String(index).utf8), expiry: .seconds(60))
                    #expect(try await redis.get(key) == Array(String(index).utf8))
                }
            }
            try await group.waitForAll()
        }
        let clients = try await redis.send(RedisCommand("CLIENT", ["LIST"]))
        guard case .bulkString(let list) = clients else { throw RedisError.protocolViolation(reason: "\(clients)") }
        #expect(String(decoding: list, as: UTF8.self).split(separator: "\n").count == 1)
    }

    @Test("EVALSHA falls back to EVAL when the server does not know the script")
    func scriptFallback() async throws {
        let server = try RedisServer()
        let redis = try client(server)
        #expect(await redis.connect())
        let script = RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])")
        _ = try await redis.send(RedisCommand("SCRIPT", ["FLUSH"]))
        #expect(try await redis.evaluate(script, keys: ["counter"], arguments: [Array("2".utf8)]) == .integer(2))
        #expect(try await redis.send(RedisCommand("SCRIPT", ["EXISTS", script.sha1])) == .array([.integer(1)]))
        #expect(try await redis.evaluate(script, keys: ["counter"], arguments: [Array("3".utf8)]) == .integer(5))
        await #expect(throws: RedisError.self) { try await redis.evaluate(RedisScript("return redis.call('NOPE')"), keys: [], arguments: []) }
    }

    @Test("user and password authenticate, the database is selected, a wrong password fails without showing it")
    func authenticationAndDatabase() async throws {
        let server = try RedisServer(extraArguments: ["--requirepass", "top-secret", "--user", "alice", "on", ">alice-pw", "~*", "+@all"])
        let alice = try client(server, credentials: "alice:alice-pw@", database: 3)
        #expect(await alice.connect())
        try await alice.set("in3", to: [1], expiry: .seconds(10))
        let defaultUser = try client(server, credentials: ":top-secret@")
        #expect(await defaultUser.connect())
        #expect(try await defaultUser.get("in3") == nil)
        _ = try await defaultUser.send(RedisCommand("SELECT", ["3"]))
        #expect(try await defaultUser.get("in3") == [1])

        let failures = Mutex<[RedisError]>([])
        let wrong = RedisClient(
            RedisConfiguration(url: try RedisURL(parsing: "redis://alice:not-it@127.0.0.1:\(server.port)")),
            onTransition: { _, cause in failures.withLock { $0.append(contentsOf: cause.map { [$0] } ?? []) } })
        #expect(await wrong.connect() == false)
        let reported = failures.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first.map { "\($0)".contains("AUTH refused") && !"\($0)".contains("not-it") } == true)
        await #expect(throws: RedisError.unavailable) { try await wrong.ping() }
    }

    @Test("a killed server fails commands at once, one transition down; after a restart the client reconnects, one transition up")
    func reconnect() async throws {
        let server = try RedisServer()
        let transitions = Transitions()
        let redis = try client(server, transitions: transitions)
        #expect(await redis.connect())
        try await redis.set("before", to: [1], expiry: .seconds(60))
        server.stop()
        for _ in 0..<20 {
            await #expect(throws: RedisError.self) { try await redis.get("before") }
        }
        // The first command found the connection closed and started opening another; that
        // attempt, refused, marks Redis down.
        #expect(await redis.connect() == false)
        #expect(!redis.isUp)
        #expect(transitions.all.count == 1)
        if case .failed = transitions.all.first {} else { Issue.record("first transition \(transitions.all)") }
        try server.start()
        #expect(await redis.connect())
        try await redis.ping()
        #expect(redis.isUp)
        #expect(transitions.all.count == 2)
        #expect(transitions.all.last == .recovered)
        // Nothing was saved: the restarted server is empty.
        #expect(try await redis.get("before") == nil)
    }

    @Test("a server that stops answering fails a command at its timeout and marks Redis down")
    func slowServer() async throws {
        let server = try RedisServer()
        let transitions = Transitions()
        let redis = try client(server, transitions: transitions, commandTimeout: .milliseconds(50))
        let admin = try client(server)
        #expect(await redis.connect())
        #expect(await admin.connect())
        _ = try await admin.send(RedisCommand("CLIENT", ["PAUSE", "1000", "ALL"]))
        let start = ContinuousClock.now
        await #expect(throws: RedisError.timedOut) { try await redis.get("anything") }
        // Well before the pause ends, whose end would answer the command.
        #expect(ContinuousClock.now - start < .milliseconds(900))
        #expect(!redis.isUp)
        #expect(await redis.connect())
        try await redis.ping()
        #expect(transitions.all.count == 2)
    }

    @Test("rediss:// verifies the server against the test CA")
    func tls() async throws {
        let server = try RedisServer(tls: (Self.certificate("server.pem"), Self.certificate("server.key")))
        let redis = try client(server, scheme: "rediss")
        #expect(await redis.connect())
        try await redis.set("over-tls", to: [7], expiry: .seconds(10))
        #expect(try await redis.get("over-tls") == [7])

        let untrusting = RedisClient(
            RedisConfiguration(
                url: try RedisURL(parsing: "rediss://127.0.0.1:\(server.port)"), tls: try TLSContext.client(trustedCertificatesFile: Self.certificate("untrusted-ca.pem"))))
        #expect(await untrusting.connect() == false)
    }
}
