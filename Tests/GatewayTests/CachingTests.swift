import GatewayTesting
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// The shared cache as the reference endpoints use it, over real sockets to stub upstreams:
/// stored parts, what the combined answer tells its client, stale answers, operator settings,
/// metrics and the access log.
@Suite("Caching upstream answers") struct CachingTests {
    func count(_ stubs: StubUpstream, _ suffix: String) -> Int {
        stubs.received.count { $0.path.hasSuffix(suffix) }
    }

    @Test("parts with max-age are reused; the combined answer may be cached for its least fresh part")
    func combinedFreshness() async throws {
        try await withScenarioGateway { gateway, stubs in
            stubs.addHeaders(under: "/menu/menu_response.json", ["Cache-Control": "max-age=60"])
            stubs.addHeaders(under: "/menu/dish_of_the_day.json", ["Cache-Control": "public, max-age=30"])
            let first = try await gateway.get("/v1/menu")
            #expect(first.status == 200)
            // The dish's 30 s, less the time the exchange took and the second `Date` rounds to.
            let maxAge = first.headers["Cache-Control"].flatMap { Int($0.dropFirst("max-age=".count)) }
            #expect(maxAge.map { (1...30).contains($0) } == true)
            #expect(first.headers["Cache-Status"]?.hasPrefix("gateway; fwd=miss; ttl=") == true)
            let second = try await gateway.get("/v1/menu")
            #expect(second.text == first.text)
            #expect(second.headers["Cache-Status"]?.hasPrefix("gateway; hit; ttl=") == true)
            #expect(count(stubs, "menu_response.json") == 1 && count(stubs, "dish_of_the_day.json") == 1)
        }
    }

    @Test("an answer built from an uncacheable or failed part is no-store")
    func uncacheableParts() async throws {
        try await withScenarioGateway { gateway, stubs in
            stubs.addHeaders(under: "/menu/menu_response.json", ["Cache-Control": "max-age=60"])
            let uncached = try await gateway.get("/v1/menu")
            #expect(uncached.headers["Cache-Control"] == "no-store")
            stubs.addHeaders(under: "/menu/dish_of_the_day.json", ["Cache-Control": "max-age=60"])
            stubs.answer(under: "/menu/dish_of_the_day.json", status: .serviceUnavailable, body: "")
            let degraded = try await gateway.get("/v1/menu")
            #expect(degraded.headers["X-Gateway-Completed"] == "false")
            #expect(degraded.headers["Cache-Control"] == "no-store")
            let deal = try await gateway.get("/v1/deal")
            #expect(deal.headers["Cache-Control"] == "no-store")
            #expect(deal.headers["Cache-Status"] == nil)
        }
    }

    @Test("a stale person and its parts stand in while swapi fails, within stale-if-error")
    func staleIfError() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_SWAPI_RETRY_ATTEMPTS": "1"]) { gateway, stubs in
            stubs.addHeaders(under: "/swapi", ["Cache-Control": "max-age=0, stale-if-error=300"])
            let fresh = try await gateway.get("/v1/people/1")
            #expect(fresh.status == 200)
            stubs.answer(under: "/swapi", status: .serviceUnavailable, body: "down")
            let stale = try await gateway.get("/v1/people/1")
            #expect(stale.status == 200)
            #expect(stale.text == fresh.text)
            #expect(stale.headers["Cache-Control"] == "no-store")
            #expect(stale.headers["Cache-Status"] == "gateway; fwd=miss")
            let metrics = try await gateway.get("/metrics")
            #expect(metrics.text.contains(#"gateway_upstream_cache_lookups_total{upstream="swapi",result="stale-if-error"} 4"#))
        }
    }

    @Test("an operator's freshness and stale window apply to an upstream that sends no Cache-Control")
    func operatorSettings() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_SWAPI_CACHE_TTL_MS": "60000", "UPSTREAM_MENU_CACHE": "off"]) { gateway, stubs in
            _ = try await gateway.get("/v1/people/1")
            _ = try await gateway.get("/v1/people/1")
            #expect(count(stubs, "/people/1/") == 1)
            _ = try await gateway.get("/v1/menu")
            _ = try await gateway.get("/v1/menu")
            #expect(count(stubs, "menu_response.json") == 2)
        }
    }

    @Test("CACHE_MAX_BYTES=0 turns the cache off")
    func cacheOff() async throws {
        try await withScenarioGateway(environment: ["CACHE_MAX_BYTES": "0"]) { gateway, stubs in
            stubs.addHeaders(under: "/menu", ["Cache-Control": "max-age=60"])
            _ = try await gateway.get("/v1/menu")
            let second = try await gateway.get("/v1/menu")
            #expect(count(stubs, "menu_response.json") == 2)
            #expect(second.headers["Cache-Control"] == "no-store")
            #expect(!(try await gateway.get("/metrics")).text.contains("gateway_upstream_cache"))
        }
    }

    @Test("a fresh combined answer is served again without running the handler, until a client or an invalidation says otherwise")
    func combinedAnswersReused() async throws {
        try await withScenarioGateway(catalog: Self.catalog) { gateway, stubs in
            stubs.addHeaders(under: "/menu", ["Cache-Control": "max-age=60"])
            let first = try await gateway.get("/v1/menu")
            let second = try await gateway.get("/v1/menu")
            #expect(second.text == first.text && second.status == 200)
            #expect(second.headers["Cache-Status"]?.hasPrefix("gateway; hit; ttl=") == true)
            #expect(second.headers["Age"] != nil && second.headers["X-Gateway-Completed"] == "true")
            #expect(count(stubs, "menu_response.json") == 1)
            // A client that asks for a fresh answer has it built again (from the stored parts).
            let rebuilt = try await gateway.get("/v1/menu", headers: ["Cache-Control": "no-cache"])
            #expect(rebuilt.headers["Cache-Status"]?.hasPrefix("gateway; hit; ttl=") == true && rebuilt.headers["Age"] == nil)
            // An unsafe call to the upstream forgets what it may have changed, combined answers included.
            stubs.answer(under: "/menu/orders", status: .created, body: "{}")
            let order = try await gateway.send(.post, "/v1/orders")
            #expect(order.status == 201)
            let afterOrder = try await gateway.get("/v1/menu")
            #expect(afterOrder.headers["Age"] == nil)
            #expect(count(stubs, "menu_response.json") == 1)
        }
    }

    @Test("an answer that read the client's fields is never reused for another request")
    func clientSpecificAnswers() async throws {
        try await withScenarioGateway(catalog: Self.catalog) { gateway, stubs in
            stubs.addHeaders(under: "/menu", ["Cache-Control": "max-age=60"])
            let alice = try await gateway.get("/v1/greeting", headers: ["X-User": "alice"])
            let bob = try await gateway.get("/v1/greeting", headers: ["X-User": "bob"])
            #expect(alice.text.contains("alice") && bob.text.contains("bob"))
            #expect(count(stubs, "dish_of_the_day.json") == 1)
        }
    }

    /// The reference catalog, plus an endpoint that reads a client's field and one that orders.
    static let catalog = GatewayCatalog(
        upstreams: GatewayCatalog.reference.upstreams,
        endpoints: GatewayCatalog.reference.endpoints + [
            Endpoint("/v1/greeting", summary: "A dish for a user", upstreams: [.menu], example: Greeting(user: "a", dish: "b")) { call in
                let dish = try await call.upstream(.menu).get("dish_of_the_day.json", as: MenuItem.self)
                return Greeting(user: call.header("X-User") ?? "nobody", dish: dish.name)
            },
            Endpoint(method: .post, "/v1/orders", summary: "An order", successStatus: .created, upstreams: [.menu], example: Greeting(user: "a", dish: "b")) { call in
                let _: Greeting? = try? await call.upstream(.menu).send(.post, "orders", json: Greeting(user: "a", dish: "b"))
                return Greeting(user: "a", dish: "b")
            },
        ])

    struct Greeting: Codable, Sendable {
        let user: String
        let dish: String
    }

    @Test("metrics count lookups by result and the bytes held; the access log names each call's result")
    func observability() async throws {
        let log = try LogCapture()
        defer { log.close() }
        try await withScenarioGateway(log: log) { gateway, stubs in
            stubs.addHeaders(under: "/menu", ["Cache-Control": "max-age=60"])
            _ = try await gateway.get("/v1/menu")
            // Built anew (not the combined answer kept), from the stored parts.
            _ = try await gateway.get("/v1/menu", headers: ["Cache-Control": "no-cache"])
            let metrics = try await gateway.get("/metrics").text
            #expect(metrics.contains(#"gateway_upstream_cache_lookups_total{upstream="menu",result="hit"} 2"#))
            #expect(metrics.contains(#"gateway_upstream_cache_lookups_total{upstream="menu",result="miss"} 2"#))
            #expect(metrics.contains(#"gateway_upstream_cache_evictions_total{upstream="menu"} 0"#))
            #expect(!metrics.contains(#"gateway_upstream_cache_bytes{upstream="menu"} 0"#))
            #expect(metrics.contains("gateway_cache_limit_bytes 67108864"))
            let lines = await log.lines { lines in lines.contains { $0.contains(#""cache":"hit""#) } }
            #expect(lines.contains { $0.contains(#""upstream":"menu","outcome":"success","status":200"#) && $0.contains(#""cache":"hit""#) })
        }
    }
}
