import GatewayTesting
import HTTPBasics
import RedisClient
import Testing

@testable import Gateway

/// Cached answers never push rate-limit state out of a shared Redis (issue 30, finding 6): the
/// start-up check of Redis's memory bound, as pure code and against a real `redis-server`.
@Suite("Redis's memory bound: cached answers never evict rate limits")
struct RedisMemoryPolicyTests {
    @Test("CONFIG GET replies read as a policy: no bound, a bound under any policy, or a Redis that will not tell")
    func replies() {
        typealias Policy = RedisMemoryPolicy
        #expect(Policy(maxmemory: .success(["maxmemory", "0"]), policy: .success(["maxmemory-policy", "allkeys-lru"])) == .unbounded)
        let lru = Policy(maxmemory: .success(["maxmemory", "1048576"]), policy: .success(["maxmemory-policy", "allkeys-lru"]))
        #expect(lru == .bounded(bytes: 1_048_576, policy: "allkeys-lru"))
        #expect(!lru.allowsCache)
        #expect(lru.logLine?.contains("evict rate-limit state; the shared cache tier is off") == true)
        let full = Policy(maxmemory: .success(["maxmemory", "10"]), policy: .success(["maxmemory-policy", "noeviction"]))
        #expect(!full.allowsCache)
        #expect(full.logLine?.contains("fill it and have rate-limit writes refused") == true)
        let refused = Policy(maxmemory: .failure(.init(reason: "CONFIG GET maxmemory: unknown command")), policy: .success([]))
        #expect(refused == .unknown(reason: "CONFIG GET maxmemory: unknown command"))
        #expect(refused.allowsCache)
        #expect(Policy(maxmemory: .success(["maxmemory"]), policy: .success(["maxmemory-policy", "x"])).allowsCache)
        #expect(Policy(maxmemory: .success(["maxmemory", "-1"]), policy: .success(["maxmemory-policy", "x"])) != .unbounded)
        #expect(Policy.unbounded.logLine == nil)
    }

    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    static let catalog = GatewayCatalog(upstreams: [origin], endpoints: [], proxies: [ProxyRoute("/ct", upstream: origin, authentication: .none)])

    /// A gateway limiting callers through `redis` in front of a stub answering 20 KB, cacheable, at every path.
    private func withGateway(
        sharing redis: RedisServer, log: LogCapture, _ body: (GatewayUnderTest, RedisClient) async throws -> Void
    ) async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer(under: "/", status: .ok, headers: ["Cache-Control": "max-age=600"], body: String(repeating: "x", count: 20_000))
        let environment = [
            "UPSTREAM_ORIGIN_URL": stub.baseURL, "REDIS_URL": "redis://127.0.0.1:\(redis.port)", "REDIS_TIMEOUT_MS": "2000",
            "RATE_LIMIT": "1000/h",
        ]
        let inspector = try RedisRateLimitStoreTests.client(redis)
        try await GatewayTesting.withGateway(catalog: Self.catalog, environment: environment, log: log) { gateway in
            #expect(await gateway.served.redis?.client.connect() == true)
            _ = await inspector.connect()
            try await body(gateway, inspector)
        }
    }

    /// The names of the keys under `prefix`.
    private func keys(_ prefix: String, in client: RedisClient) async throws -> Int {
        guard case .array(let names) = try await client.send(RedisCommand("KEYS", [prefix + "*"])) else { return -1 }
        return names.count
    }

    @Test("under maxmemory with allkeys-lru the cache keeps off Redis, says so once, and the limit state survives filling the cache")
    func boundedRedisHoldsLimitsOnly() async throws {
        guard RedisServer.isInstalled else { return }
        let redis = try RedisServer(extraArguments: ["--maxmemory", "4mb", "--maxmemory-policy", "allkeys-lru"])
        let log = try LogCapture()
        defer { log.close() }
        try await withGateway(sharing: redis, log: log) { gateway, inspector in
            // Answered only once the start-up check is done: the gateway accepts after it.
            let first = try await gateway.get("/ct/0")
            #expect(first.status == 200)
            #expect(gateway.served.redis?.allowsCache == false)
            let limitKeys = try await keys(RedisRateLimitStore.prefix, in: inspector)
            #expect(limitKeys == 1)
            // 6 MB of cacheable answers, half as much again as the bound.
            for index in 1...300 {
                #expect(try await gateway.get("/ct/\(index)").status == 200)
            }
            #expect(try await keys(RedisResponseTier.prefix, in: inspector) == 0)
            #expect(try await keys(RedisRateLimitStore.prefix, in: inspector) == 1)
            let lines = await log.lines(until: { $0.contains { $0.contains("maxmemory") } })
            #expect(lines.filter { $0.contains("redis: maxmemory is 4194304 bytes with maxmemory-policy allkeys-lru") }.count == 1)
        }
    }

    @Test("without maxmemory the cache shares Redis and nothing is said; a Redis refusing CONFIG is said once and shared", arguments: [false, true])
    func unboundedOrSilentRedis(silent: Bool) async throws {
        guard RedisServer.isInstalled else { return }
        let redis = try RedisServer(extraArguments: silent ? ["--rename-command", "CONFIG", ""] : [])
        let log = try LogCapture()
        defer { log.close() }
        try await withGateway(sharing: redis, log: log) { gateway, _ in
            // Answered only once the start-up check is done: the gateway accepts after it.
            let answer = try await gateway.get("/ct/1")
            #expect(answer.status == 200)
            #expect(gateway.served.redis?.allowsCache == true)
            guard silent else {
                // Asked again, an unbounded Redis says nothing.
                #expect(await gateway.served.redis?.checkMemoryPolicy() == .unbounded)
                return
            }
            let lines = await log.lines(until: { $0.contains { $0.contains("cannot check maxmemory") } })
            let said = lines.filter { $0.contains("redis: cannot check maxmemory and maxmemory-policy (CONFIG GET maxmemory") }
            #expect(said.count == 1)
        }
    }
}
