import GatewayTesting
import HTTP1Server
import HTTPBasics
import RedisClient
import Testing

@testable import Gateway

/// Issue #30: a shared cache entry that no replica wrote (a hostile or compromised Redis) is a
/// miss, counted and reported once, never an answer: here a stored `101 Switching Protocols`,
/// which a proxy route would otherwise pass to its client with the connection kept open.
@Suite("Shared cache entries from a hostile Redis", .enabled(if: RedisServer.isInstalled, "redis-server is not installed (apt-get install redis-server)"))
struct HostileSharedEntryTests {
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    static let catalog = GatewayCatalog(upstreams: [origin], endpoints: [], proxies: [ProxyRoute("/ct", upstream: origin, authentication: .none)])

    /// Offset of the status in an entry: the magic and version, then two 8-byte times.
    static let statusOffset = 4 + 8 + 8

    @Test("an entry rewritten to status 101 or to hold CR LF in a field is a miss; the upstream answers; one warning, the metric counts")
    func rewrittenEntries() async throws {
        let redis = try RedisServer()
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/api/a", json: #"{"a":1}"#, headers: ["Cache-Control": "max-age=60"])
        stub.answer("/api/b", json: #"{"b":1}"#, headers: ["Cache-Control": "max-age=60", "X-Note": "AAAA"])
        let environment = ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/api", "REDIS_URL": "redis://127.0.0.1:\(redis.port)", "REDIS_TIMEOUT_MS": "2000"]
        let client = RedisClient(RedisConfiguration(url: try RedisURL(parsing: "redis://127.0.0.1:\(redis.port)"), commandTimeout: .seconds(2)))
        #expect(await client.connect())
        let log = try LogCapture()
        // The replicas share entries for the host clients name (a proxy route's key holds it):
        // the second is asked by the first's name, as behind one load balancer.
        var sharedHost = ""
        try await withGateway(catalog: Self.catalog, environment: environment) { first in
            sharedHost = "127.0.0.1:\(first.port)"
            #expect(await first.served.redis?.client.connect() == true)
            #expect(try await first.get("/ct/a").status == 200)
            #expect(try await first.get("/ct/b").status == 200)
            // The writes to Redis do not make the client wait: wait for both entries.
            var names: [String] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while names.count < 2, ContinuousClock.now < deadline {
                guard case .array(let keys) = try await client.send(RedisCommand("KEYS", ["*"])) else { break }
                names = keys.compactMap { if case .bulkString(let name) = $0 { String(decoding: name, as: UTF8.self) } else { nil } }
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(names.count == 2)
            for name in names {
                var entry = try #require(try await client.get(name))
                if let note = Self.range(of: Array("AAAA".utf8), in: entry) {
                    entry.replaceSubrange(note, with: Array("A\r\nX".utf8))
                } else {
                    entry.replaceSubrange(Self.statusOffset..<Self.statusOffset + 4, with: [0, 0, 0, 101])
                }
                try await client.set(name, to: entry, expiry: .seconds(60))
            }
        }
        try await withGateway(catalog: Self.catalog, environment: environment, log: log) { second in
            #expect(await second.served.redis?.client.connect() == true)
            func get(_ target: String) async throws -> String {
                try await RawHTTP.exchange("GET \(target) HTTP/1.1\r\nHost: \(sharedHost)\r\nConnection: close\r\n\r\n", port: second.port)
            }
            let switched = try await get("/ct/a")
            #expect(RawHTTP.status(of: switched) == 200 && switched.hasSuffix(#"{"a":1}"#))
            let split = try await get("/ct/b")
            #expect(RawHTTP.status(of: split) == 200 && split.contains("\r\nX-Note: AAAA\r\n"))
            #expect(stub.received.count == 4)
            let metrics = try await second.get("/metrics").text
            #expect(metrics.contains("gateway_redis_refused_entries_total 2"))
        }
        let lines = await log.lines { $0.contains { $0.contains("shared cache entry was refused") } }
        #expect(lines.filter { $0.contains("shared cache entry was refused") }.count == 1)
    }

    private static func range(of part: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= part.count else { return nil }
        return (0...bytes.count - part.count).first { bytes[$0..<$0 + part.count].elementsEqual(part) }.map { $0..<$0 + part.count }
    }
}
