import GatewayTesting
import HTTPBasics
import RedisClient
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// Replicas sharing answers through a real `redis-server` on loopback: two in-process gateways
/// in front of one stub, and Redis going away under them.
@Suite("Sharing cached answers through Redis", .enabled(if: RedisServer.isInstalled, "redis-server is not installed (apt-get install redis-server)"))
struct SharedCacheTests {
    /// Two gateways (replicas) in front of one scenario stub, sharing `redis`; the first logs to
    /// `log`, the second to `secondLog`.
    private func withReplicas(
        sharing redis: RedisServer, log: LogCapture? = nil, secondLog: LogCapture? = nil, environment extra: [String: String] = [:],
        _ body: (GatewayUnderTest, GatewayUnderTest, StubUpstream) async throws -> Void
    ) async throws {
        let stubs = try StubUpstream.scenario()
        defer { stubs.shutdown() }
        stubs.addHeaders(under: "/swapi", ["Cache-Control": "max-age=60"])
        var environment = stubs.scenarioEnvironment
        environment["REDIS_URL"] = "redis://127.0.0.1:\(redis.port)"
        // Generous: a loaded test machine must not turn a slow command into Redis being down.
        environment["REDIS_TIMEOUT_MS"] = "2000"
        environment.merge(extra) { _, test in test }
        try await withGateway(catalog: .reference, environment: environment, log: log) { first in
            try await withGateway(catalog: .reference, environment: environment, log: secondLog) { second in
                #expect(await first.served.redis?.client.connect() == true)
                #expect(await second.served.redis?.client.connect() == true)
                try await body(first, second, stubs)
            }
        }
    }

    /// Waits until Redis holds `count` keys: the replica writes them without making its client wait.
    static func waitForKeys(_ count: Int, in redis: RedisServer) async throws -> Int {
        let client = RedisClient(RedisConfiguration(url: try RedisURL(parsing: "redis://127.0.0.1:\(redis.port)"), commandTimeout: .seconds(2)))
        _ = await client.connect()
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let size = try await client.send(RedisCommand("DBSIZE"))
            if size == .integer(Int64(count)) || ContinuousClock.now > deadline {
                guard case .integer(let keys) = size else { return -1 }
                return Int(keys)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("an answer fetched through one replica is served by the other without an upstream call")
    func sharedBetweenReplicas() async throws {
        let redis = try RedisServer()
        try await withReplicas(sharing: redis) { first, second, stubs in
            let fetched = try await first.get("/v1/people/1")
            #expect(fetched.status == 200)
            let upstreamCalls = stubs.received.count
            #expect(upstreamCalls > 1)
            #expect(try await Self.waitForKeys(upstreamCalls, in: redis) == upstreamCalls)
            let shared = try await second.get("/v1/people/1")
            #expect(shared.status == 200)
            #expect(shared.text == fetched.text)
            #expect(stubs.received.count == upstreamCalls)
            // Now in the second replica's memory too: asked again, Redis is not needed.
            redis.stop()
            #expect(try await second.get("/v1/people/1").text == fetched.text)
            #expect(stubs.received.count == upstreamCalls)
        }
    }

    @Test("no key name holds the caller's credentials; entries of another layout are misses")
    func keysAndForeignEntries() async throws {
        let redis = try RedisServer()
        try await withReplicas(sharing: redis) { first, second, stubs in
            _ = try await first.get("/v1/people/1")
            let upstreamCalls = stubs.received.count
            #expect(try await Self.waitForKeys(upstreamCalls, in: redis) == upstreamCalls)
            let client = RedisClient(RedisConfiguration(url: try RedisURL(parsing: "redis://127.0.0.1:\(redis.port)"), commandTimeout: .seconds(2)))
            _ = await client.connect()
            let keys = try await client.send(RedisCommand("KEYS", ["*"]))
            guard case .array(let names) = keys else { throw RedisError.protocolViolation(reason: "\(keys)") }
            for case .bulkString(let name) in names {
                let text = String(decoding: name, as: UTF8.self)
                #expect(text.hasPrefix(RedisResponseTier.prefix) && text.count == RedisResponseTier.prefix.count + 64)
                try await client.set(text, to: Array("not an entry".utf8), expiry: .seconds(60))
            }
            let answer = try await second.get("/v1/people/1")
            #expect(answer.status == 200)
            #expect(stubs.received.count == 2 * upstreamCalls)
        }
    }

    @Test("with Redis killed mid-run no request fails; one warning, the metric and /readyz say so; it comes back")
    func redisDownMidRun() async throws {
        let redis = try RedisServer()
        let log = try LogCapture()
        defer { log.close() }
        try await withReplicas(sharing: redis, log: log) { first, _, _ in
            #expect(try await first.get("/readyz").text == #"{"status":"ready","redis":"up"}"#)
            redis.stop()
            for index in 1...5 {
                #expect(try await first.get("/v1/people/\(index)").status == 200)
            }
            let lines = await log.lines(until: { $0.contains { $0.contains("redis: ") } })
            let warnings = lines.filter { $0.contains("redis: redis://127.0.0.1:\(redis.port)/0 unavailable") }
            #expect(warnings.count == 1)
            let ready = try await first.get("/readyz")
            #expect(ready.status == 200)
            #expect(ready.text == #"{"status":"ready","redis":"down"}"#)
            let metrics = try await first.get("/metrics").text
            #expect(metrics.contains("gateway_redis_up 0"))
            #expect(!metrics.contains("gateway_redis_errors_total 0"))

            try redis.start()
            #expect(await first.served.redis?.client.connect() == true)
            #expect(try await first.get("/v1/people/1").status == 200)
            #expect(try await first.get("/readyz").text == #"{"status":"ready","redis":"up"}"#)
            let after = await log.lines(until: { $0.contains { $0.contains("is back; sharing resumes") } })
            #expect(after.filter { $0.contains("redis: ") }.count == 2)
        }
    }

    @Test("Redis restarted with no traffic: every replica's /readyz and gateway_redis_up say up within the longest back-off")
    func reconnectsWithoutTraffic() async throws {
        let redis = try RedisServer()
        let logs = [try LogCapture(), try LogCapture()]
        defer { logs.forEach { $0.close() } }
        try await withReplicas(sharing: redis, log: logs[0], secondLog: logs[1]) { first, second, stubs in
            redis.stop()
            // The server's hang-up is noticed on the idle connection: no request is needed.
            for (gateway, log) in zip([first, second], logs) {
                let lines = await log.lines(until: { $0.contains { $0.contains("unavailable") } })
                #expect(lines.contains { $0.contains("redis: redis://127.0.0.1:\(redis.port)/0 unavailable") })
                #expect(try await gateway.get("/readyz").text == #"{"status":"ready","redis":"down"}"#)
            }
            try redis.start()
            let restarted = ContinuousClock.now
            for (gateway, log) in zip([first, second], logs) {
                // REDIS_TIMEOUT_MS's back-off tops out at 10 s (docs/CONFIGURATION.md).
                let lines = await log.lines(until: { $0.contains { $0.contains("is back; sharing resumes") } }, timeout: .seconds(12))
                #expect(lines.contains { $0.contains("is back; sharing resumes") })
                #expect(try await gateway.get("/readyz").text == #"{"status":"ready","redis":"up"}"#)
                #expect(try await gateway.get("/metrics").text.contains("gateway_redis_up 1"))
            }
            #expect(restarted.duration(to: .now) < .seconds(11))
            // The first request after recovery uses the shared tier: what one replica fetched,
            // the other serves without calling the upstream.
            #expect(try await first.get("/v1/people/1").status == 200)
            let upstreamCalls = stubs.received.count
            #expect(try await Self.waitForKeys(upstreamCalls, in: redis) == upstreamCalls)
            #expect(try await second.get("/v1/people/1").status == 200)
            #expect(stubs.received.count == upstreamCalls)
        }
    }

    @Test("a caller's limit holds across replicas; with Redis down each replica limits it alone, and no request fails")
    func limitsAcrossReplicas() async throws {
        let redis = try RedisServer()
        try await withReplicas(sharing: redis, environment: ["RATE_LIMIT": "2/h"]) { first, second, _ in
            #expect(try await first.get("/v1/people/1").status == 200)
            let shared = try await second.get("/v1/people/1")
            #expect(shared.status == 200)
            #expect(shared.headers["RateLimit"] == #""default";r=0;t=1800"#)
            #expect(try await first.get("/v1/people/1").status == 429)
            #expect(try await second.get("/v1/people/1").status == 429)
            redis.stop()
            // A refusal Redis made stands until it ends; a route the caller has not used yet is
            // limited by each replica on its own, never failing for Redis.
            #expect(try await first.get("/v1/people/1").status == 429)
            for gateway in [first, second] {
                #expect(try await gateway.get("/v1/menu").status == 200)
                #expect(try await gateway.get("/v1/menu").status == 200)
                #expect(try await gateway.get("/v1/menu").status == 429)
            }
        }
    }

    @Test("a Redis that stops answering costs a request at most REDIS_TIMEOUT_MS, once")
    func slowRedis() async throws {
        let redis = try RedisServer()
        let log = try LogCapture()
        defer { log.close() }
        try await withReplicas(sharing: redis, log: log, environment: ["REDIS_TIMEOUT_MS": "100"]) { first, _, _ in
            let admin = RedisClient(RedisConfiguration(url: try RedisURL(parsing: "redis://127.0.0.1:\(redis.port)"), commandTimeout: .seconds(2)))
            #expect(await admin.connect())
            _ = try await admin.send(RedisCommand("CLIENT", ["PAUSE", "3000", "ALL"]))
            let start = ContinuousClock.now
            #expect(try await first.get("/v1/people/2").status == 200)
            #expect(try await first.get("/v1/people/3").status == 200)
            // Well under the pause: the first lookup waited for its timeout, the rest not at all.
            #expect(ContinuousClock.now - start < .milliseconds(2500))
            let lines = await log.lines(until: { $0.contains { $0.contains("redis: ") } })
            #expect(lines.filter { $0.contains("unavailable (Redis timed out)") }.count == 1)
        }
    }

    @Test("rediss:// with REDIS_CA_FILE: the gateway verifies Redis against that CA")
    func tls() async throws {
        let redis = try RedisServer(tls: (TestCertificates.path("server.pem"), TestCertificates.path("server.key")))
        let environment = ["REDIS_URL": "rediss://127.0.0.1:\(redis.port)", "REDIS_CA_FILE": TestCertificates.path("ca.pem")]
        try await withScenarioGateway(environment: environment) { gateway, _ throws in
            #expect(await gateway.served.redis?.client.connect() == true)
            let ready = try await gateway.get("/readyz")
            #expect(ready.text == #"{"status":"ready","redis":"up"}"#)
        }
    }

    @Test("REDIS_URL is read strictly, and its password is never quoted")
    func configuration() async throws {
        let upstreams = GatewayCatalog.reference.upstreams
        func problem(_ environment: [String: String]) -> String? {
            do {
                _ = try GatewayConfiguration(environment: environment, upstreams: upstreams)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(["REDIS_URL": "redis://u:hunter2@h:99999"]).map { $0.contains("REDIS_URL") && !$0.contains("hunter2") } == true)
        #expect(problem(["REDIS_URL": "http://u:hunter2@h"]).map { !$0.contains("hunter2") } == true)
        #expect(problem(["REDIS_CA_FILE": "/tmp/ca.pem"]) == "configuration error: REDIS_CA_FILE applies only with REDIS_URL")
        #expect(problem(["REDIS_URL": "redis://h", "REDIS_CA_FILE": "/tmp/ca.pem"]) == "configuration error: REDIS_CA_FILE applies only to rediss://")
        #expect(problem(["REDIS_URL": "rediss://h", "REDIS_CA_FILE": "/nonexistent/ca.pem"])?.hasPrefix("configuration error: REDIS_CA_FILE") == true)
        #expect(problem(["REDIS_URL": "redis://h", "REDIS_TIMEOUT_MS": "0"])?.hasPrefix("configuration error: REDIS_TIMEOUT_MS") == true)
        let checked = await OperatorCommandTests.command(["--check"], ["REDIS_URL": "redis://u:hunter2@127.0.0.1:1/3"])
        #expect(checked.status == 0)
        #expect(checked.lines.contains("  REDIS_URL=(set)") && !checked.lines.joined().contains("hunter2"))
        let refused = await OperatorCommandTests.command([], ["REDIS_URL": "redis://u:hunter2@127.0.0.1:1/x"])
        #expect(refused.status == 2)
        #expect(refused.lines == [#"!configuration error: REDIS_URL database must be a number, got "x""#])
        let configured = try GatewayConfiguration(environment: ["REDIS_URL": "rediss://:pw@cache:6380/2", "REDIS_TIMEOUT_MS": "80"], upstreams: upstreams)
        #expect(configured.redis?.url.description == "rediss://:(set)@cache:6380/2")
        #expect(configured.redis?.commandTimeout == .milliseconds(80))
        #expect(configured.redis?.tls != nil)
        #expect(try GatewayConfiguration(environment: [:], upstreams: upstreams).redis == nil)
    }
}
