import GatewayTesting
import RedisClient
import Synchronization
import Testing

@testable import Gateway

/// The shared rate limit store against a real `redis-server` on loopback: the script's arithmetic
/// against `GenericCellRate`'s, Redis's time, atomicity under concurrent replicas, leases, and
/// the fallback to limits per replica.
@Suite(
    "Rate limits shared through Redis", .enabled(if: RedisServer.isInstalled, "redis-server is not installed (apt-get install redis-server)"))
struct RedisRateLimitStoreTests {
    static let alice = RateLimitKey(route: 0, caller: .subject("alice"))

    /// A client of `server` (a replica's), patient enough for a loaded test machine.
    static func client(_ server: RedisServer, commandTimeout: Duration = .seconds(2)) throws -> RedisClient {
        RedisClient(
            RedisConfiguration(
                url: try RedisURL(parsing: "redis://127.0.0.1:\(server.port)"), commandTimeout: commandTimeout, initialBackoff: .seconds(30),
                maximumBackoff: .seconds(30)))
    }

    /// Redis's own clock, in microseconds.
    static func redisTime(_ client: RedisClient) async throws -> Int64 {
        guard case .array(let parts) = try await client.send(RedisCommand("TIME")), parts.count == 2,
            case .bulkString(let seconds) = parts[0], case .bulkString(let micros) = parts[1],
            let whole = Int64(String(decoding: seconds, as: UTF8.self)), let part = Int64(String(decoding: micros, as: UTF8.self))
        else { throw RedisError.protocolViolation(reason: "TIME") }
        return whole * 1_000_000 + part
    }

    /// How many times Redis ran the script (`EVALSHA` and `EVAL` calls).
    static func scriptCalls(_ client: RedisClient) async throws -> Int {
        guard case .bulkString(let info) = try await client.send(RedisCommand("INFO", ["commandstats"])) else { return -1 }
        var total = 0
        for line in String(decoding: info, as: UTF8.self).split(whereSeparator: \.isNewline)
        where line.hasPrefix("cmdstat_evalsha:") || line.hasPrefix("cmdstat_eval:") {
            if let calls = line.split(separator: ",").first?.split(separator: "=").last, let count = Int(calls) { total += count }
        }
        return total
    }

    @Test("the script decides as GenericCellRate does, at Redis's time, and the key expires when its state stops mattering")
    func scriptMirrorsTheArithmetic() async throws {
        let server = try RedisServer()
        let client = try Self.client(server)
        #expect(await client.connect())
        // A replica whose own clock is frozen far from Redis's: it must not matter.
        let store = RedisRateLimitStore(client: client, maximumKeys: 1024, now: { 42 })
        let name = RedisRateLimitStore.name(of: Self.alice, route: "/v1/people/:id")
        #expect(name.hasPrefix("gateway:rl:1:") && name.count == "gateway:rl:1:".count + 64 && !name.contains("alice"))
        for (policy, wanted) in [(RateLimitPolicy(10, per: .second, burst: 5), 1), (RateLimitPolicy(3, per: .minute), 1), (RateLimitPolicy(1000, per: .second, burst: 200), 100)] {
            _ = try await client.send(RedisCommand("DEL", [name]))
            let rate = GenericCellRate(policy)
            var stored: Int64?
            for round in 0..<12 {
                // Every third decision gives back admissions of an ended lease.
                let returned = round % 3 == 2 ? 3 : 0
                let before = try await Self.redisTime(client)
                let (decision, redisNow) = try await store.ask(name, rate: rate, wanted: wanted, returned: returned)
                #expect(redisNow >= before && redisNow - before < 2_000_000, "the script's now is Redis's")
                #expect(decision == rate.decide(stored: stored, now: redisNow, wanted: wanted, returned: returned), "\(policy)")
                guard decision.isAdmitted || returned > 0 else { continue }
                stored = decision.stored
                guard decision.isAdmitted else { continue }
                guard case .integer(let expiry) = try await client.send(RedisCommand("PTTL", [name])) else { throw RedisError.protocolViolation(reason: "PTTL") }
                #expect(expiry > 0 && expiry <= (decision.stored - redisNow + 999) / 1000, "expires when the state no longer matters")
            }
        }
        // A state in Redis's past holds nothing, one in its future is debt, whatever the replica's clock says.
        let rate = GenericCellRate(RateLimitPolicy(1, per: .second, burst: 1))
        let now = try await Self.redisTime(client)
        try await client.set(name, to: Array(String(now - 5_000_000).utf8), expiry: .seconds(60))
        #expect(await store.decide(Self.alice, under: rate, route: "/v1/people/:id").isAdmitted)
        try await client.set(name, to: Array(String(now + 10_000_000).utf8), expiry: .seconds(60))
        let refused = await store.decide(Self.alice, under: rate, route: "/v1/people/:id")
        #expect(!refused.isAdmitted && (9_000_000...11_000_000).contains(refused.wait))
    }

    @Test("two replicas hammering one caller's state admit exactly the burst between them")
    func atomicAcrossReplicas() async throws {
        let server = try RedisServer()
        let first = try Self.client(server)
        let second = try Self.client(server)
        #expect(await first.connect())
        #expect(await second.connect())
        let stores = [RedisRateLimitStore(client: first, maximumKeys: 1024), RedisRateLimitStore(client: second, maximumKeys: 1024)]
        // One request every 36 s at the steady rate: nothing refills while the test runs.
        let rate = GenericCellRate(RateLimitPolicy(100, per: .hour, burst: 50))
        let admitted = await withTaskGroup(of: Int.self) { group in
            for index in 0..<400 {
                group.addTask { await stores[index % 2].decide(Self.alice, under: rate, route: "/v1/menu").isAdmitted ? 1 : 0 }
            }
            return await group.reduce(0, +)
        }
        #expect(admitted == 50)
        #expect(stores.allSatisfy { $0.fallback.keyCount == 0 }, "every decision was Redis's")
    }

    @Test("a caller far below its limit is admitted from leases; over any span the replicas admit at most the limit plus a lease")
    func leases() async throws {
        let server = try RedisServer()
        let clients = try (0..<3).map { _ in try Self.client(server) }
        for client in clients { #expect(await client.connect()) }
        let stores = clients.map { RedisRateLimitStore(client: $0, maximumKeys: 1024) }
        let policy = RateLimitPolicy(1000, per: .second, burst: 400)
        let rate = GenericCellRate(policy)
        let wanted = RedisRateLimitStore.leaseLifetime / rate.interval
        let start = try await Self.redisTime(clients[0])
        let callsBefore = try await Self.scriptCalls(clients[0])
        var admitted = 0
        for index in 0..<600 where await stores[index % 3].decide(Self.alice, under: rate, route: "/v1/menu").isAdmitted {
            admitted += 1
        }
        let elapsed = try await Self.redisTime(clients[0]) - start
        let calls = try await Self.scriptCalls(clients[0]) - callsBefore
        #expect(calls < 600 / 2, "leases spared most round trips (\(calls) scripts for 600 requests)")
        #expect(admitted >= 400)
        #expect(Int64(admitted) <= Int64(policy.burst) + elapsed / rate.interval + 1 + wanted)
    }

    @Test("a caller below its limit is charged for what it used: concurrent first requests and ended leases never refuse it")
    func leasesGiveBackWhatTheyDidNotUse() async throws {
        let server = try RedisServer()
        let client = try Self.client(server)
        #expect(await client.connect())
        // The replica's clock moves only when the test says: each round ends the lease before it.
        let clock = Mutex<Int64>(0)
        let store = RedisRateLimitStore(client: client, maximumKeys: 1024, now: { clock.withLock { $0 } })
        let rate = GenericCellRate(RateLimitPolicy(1000, per: .second))
        let first = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<64 { group.addTask { await store.decide(Self.alice, under: rate, route: "/v1/menu").isAdmitted } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(first == 64, "concurrent first requests are admitted from what the others were granted")
        // A fifth of the limit for twenty rounds: were ended leases not given back, each round would
        // charge a whole lease and the caller would run out within the burst.
        for round in 0..<20 {
            clock.withLock { $0 += RedisRateLimitStore.leaseLifetime + 1 }
            for _ in 0..<20 {
                #expect(await store.decide(Self.alice, under: rate, route: "/v1/menu").isAdmitted, "round \(round)")
            }
        }
    }

    @Test("with Redis down each replica decides alone, at once and without failing; a refusal is kept until it ends")
    func fallbackAndRefusals() async throws {
        let server = try RedisServer()
        let client = try Self.client(server, commandTimeout: .milliseconds(500))
        #expect(await client.connect())
        let store = RedisRateLimitStore(client: client, maximumKeys: 1024)
        let rate = GenericCellRate(RateLimitPolicy(1, per: .hour, burst: 1))
        #expect(await store.decide(Self.alice, under: rate, route: "/v1/menu").isAdmitted)
        let callsBefore = try await Self.scriptCalls(client)
        for _ in 0..<5 { #expect(!(await store.decide(Self.alice, under: rate, route: "/v1/menu").isAdmitted)) }
        #expect(try await Self.scriptCalls(client) - callsBefore == 1, "the refusal was kept: one script, then none")

        server.stop()
        let bob = RateLimitKey(route: 0, caller: .subject("bob"))
        let start = ContinuousClock.now
        #expect(await store.decide(bob, under: rate, route: "/v1/menu").isAdmitted)
        #expect(!(await store.decide(bob, under: rate, route: "/v1/menu").isAdmitted), "limited by this replica alone")
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(await !client.connect())
        #expect(!client.isUp)
        #expect(store.fallback.keyCount == 1)
    }
}
