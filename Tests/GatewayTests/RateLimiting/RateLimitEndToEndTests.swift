import GatewayTesting
import ReferenceScenario
import Testing

@testable import Gateway

/// Rate limits through real sockets: the 429 and its fields, endpoints with limits of their own
/// or none, proxy routes, operations routes, and who the caller is behind a trusted proxy.
@Suite struct RateLimitEndToEndTests {
    struct Answer: Codable, Sendable {
        var ok: Bool
    }

    static let items = UpstreamDefinition(name: "items", defaultBaseURL: "http://127.0.0.1:1")

    static let catalog = GatewayCatalog(
        upstreams: [items],
        endpoints: [
            Endpoint("/v1/default", summary: "RATE_LIMIT", upstreams: [items], example: Answer(ok: true)) { call in
                try await call.upstream(items).get("items", as: Answer.self)
            },
            Endpoint("/v1/own", summary: "Its own", rateLimit: .limit(RateLimitPolicy(1, per: .hour, burst: 1)), upstreams: [], example: Answer(ok: true)) { _ in
                Answer(ok: true)
            },
            Endpoint("/v1/free", summary: "None", rateLimit: .off, upstreams: [], example: Answer(ok: true)) { _ in Answer(ok: true) },
        ],
        proxies: [ProxyRoute("/pass", upstream: items, rateLimit: .limit(RateLimitPolicy(1, per: .hour)))])

    static func withLimitedGateway(_ environment: [String: String], _ body: (GatewayUnderTest, StubUpstream) async throws -> Void) async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/items", json: #"{"ok":true}"#)
        let gateway = try GatewayUnderTest(catalog: catalog, environment: ["UPSTREAM_ITEMS_URL": stub.baseURL].merging(environment) { $1 })
        try await body(gateway, stub)
        await gateway.stop()
    }

    @Test func overTheLimitIs429WithRetryAfterAndTheDraftsFields() async throws {
        try await Self.withLimitedGateway(["RATE_LIMIT": "1/min burst 2"]) { gateway, stub in
            let first = try await gateway.get("/v1/default")
            #expect(first.status == 200)
            #expect(first.headers["RateLimit-Policy"] == #""default";q=1;w=60"#)
            #expect(first.headers["RateLimit"] == #""default";r=1;t=60"#)
            let second = try await gateway.get("/v1/default")
            #expect(second.status == 200)
            #expect(second.headers["RateLimit"] == #""default";r=0;t=60"#)
            let refused = try await gateway.get("/v1/default")
            #expect(refused.status == 429)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            let retryAfter = try #require(refused.headers["Retry-After"].flatMap { Int($0) })
            #expect((59...60).contains(retryAfter))
            #expect(refused.headers["RateLimit"] == #""default";r=0;t=\#(retryAfter)"#)
            #expect(refused.headers["RateLimit-Policy"] == #""default";q=1;w=60"#)
            #expect(refused.text.contains("1/min burst 2"))
            #expect(stub.received.count == 2, "a refused request calls no upstream")

            // Endpoints with a limit of their own, or none; the operations routes are never limited.
            let own = try await gateway.get("/v1/own")
            #expect(own.status == 200)
            // Named as the route's own, not the gateway's default (the draft's policy name).
            #expect(own.headers["RateLimit-Policy"]?.hasPrefix(#""route";"#) == true)
            #expect(own.headers["RateLimit"]?.hasPrefix(#""route";r=0;"#) == true)
            #expect(try await gateway.get("/v1/own").status == 429)
            for _ in 0..<3 {
                let free = try await gateway.get("/v1/free")
                #expect(free.status == 200)
                #expect(free.headers["RateLimit"] == nil)
                #expect(try await gateway.get("/healthz").headers["RateLimit"] == nil)
            }
            // A proxy route with its own.
            #expect(try await gateway.get("/pass/items").status == 200)
            let proxied = try await gateway.get("/pass/items")
            #expect(proxied.status == 429)
            #expect(proxied.headers["RateLimit-Policy"] == #""route";q=1;w=3600"#)
            #expect(stub.received.count == 3)

            let metrics = try await gateway.get("/metrics").text
            #expect(metrics.contains(#"gateway_rate_limit_decisions_total{route="/v1/default",decision="admitted"} 2"#))
            #expect(metrics.contains(#"gateway_rate_limit_decisions_total{route="/v1/default",decision="limited"} 1"#))
            #expect(metrics.contains(#"gateway_rate_limit_decisions_total{route="/pass/*",decision="limited"} 1"#))
            #expect(!metrics.contains(#"route="/v1/free",decision"#))
            #expect(metrics.contains("gateway_rate_limit_keys 3\n"))
            let document = try await gateway.get("/openapi.json").text
            #expect(document.contains("429"))
        }
    }

    @Test func withoutRateLimitOnlyEndpointsWithTheirOwnAreLimited() async throws {
        try await Self.withLimitedGateway([:]) { gateway, _ async throws in
            for _ in 0..<3 {
                let answer = try await gateway.get("/v1/default")
                #expect(answer.status == 200)
                #expect(answer.headers["RateLimit"] == nil)
            }
            let own = try await gateway.get("/v1/own")
            #expect(own.status == 200)
            // Named as the route's own, not the gateway's default (the draft's policy name).
            #expect(own.headers["RateLimit-Policy"]?.hasPrefix(#""route";"#) == true)
            #expect(own.headers["RateLimit"]?.hasPrefix(#""route";r=0;"#) == true)
            #expect(try await gateway.get("/v1/own").status == 429)
            #expect(!(try await gateway.get("/metrics").text.contains(#"route="/v1/default",decision"#)))
        }
    }

    @Test func aTrustedProxyNamesTheClient() async throws {
        try await Self.withLimitedGateway(["RATE_LIMIT": "1/h", "TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1"]) { gateway, _ async throws in
            // Each client behind the proxy has its own allowance.
            #expect(try await gateway.get("/v1/default", headers: ["X-Forwarded-For": "198.51.100.1"]).status == 200)
            #expect(try await gateway.get("/v1/default", headers: ["X-Forwarded-For": "198.51.100.2"]).status == 200)
            #expect(try await gateway.get("/v1/default", headers: ["X-Forwarded-For": "198.51.100.1"]).status == 429)
            // What the client wrote left of the proxy's entry changes nothing.
            #expect(try await gateway.get("/v1/default", headers: ["X-Forwarded-For": "203.0.113.9, 198.51.100.2"]).status == 429)
            // Forwarded is not the configured field: the proxy itself is the caller.
            #expect(try await gateway.get("/v1/default", headers: ["Forwarded": "for=198.51.100.3"]).status == 200)
            #expect(try await gateway.get("/v1/default", headers: ["Forwarded": "for=198.51.100.4"]).status == 429)
        }
    }

    @Test func anUntrustedPeerCannotChooseItsAddress() async throws {
        try await Self.withLimitedGateway(["RATE_LIMIT": "1/h", "TRUSTED_PROXIES": "10.0.0.0/8"]) { gateway, _ async throws in
            #expect(try await gateway.get("/v1/default", headers: ["X-Forwarded-For": "198.51.100.1"]).status == 200)
            #expect(try await gateway.get("/v1/default", headers: ["X-Forwarded-For": "198.51.100.2"]).status == 429)
            #expect(try await gateway.get("/v1/default").status == 429)
        }
    }

    @Test func badSettingsStopStartUp() {
        func problem(_ environment: [String: String]) -> String? {
            do {
                _ = try GatewayConfiguration(environment: environment, upstreams: [])
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(["RATE_LIMIT": "20/s"]) == nil)
        #expect(problem(["RATE_LIMIT": "off"]) == nil)
        #expect(problem(["RATE_LIMIT": "20/sec"])
            == #"configuration error: RATE_LIMIT must be off, or N/s, N/min or N/h optionally followed by " burst N" (N from 1 to 1000000), got "20/sec""#)
        #expect(problem(["RATE_LIMIT": "default"])?.hasPrefix("configuration error: RATE_LIMIT must be off") == true)
        #expect(problem(["RATE_LIMIT_MAX_CLIENTS": "10"])?.hasPrefix("configuration error: RATE_LIMIT_MAX_CLIENTS must be a whole number") == true)
        #expect(problem(["TRUSTED_PROXIES": "10.0.0.0/8, ::1, fd00::/8"]) == nil)
        #expect(problem(["TRUSTED_PROXIES": "10.0.0.0/8,proxy.internal"])
            == #"configuration error: TRUSTED_PROXIES holds "proxy.internal", which is not an IPv4 or IPv6 address or CIDR block (10.0.0.0/8, fd00::/8)"#)
        #expect(problem(["TRUSTED_PROXIES": "10.0.0.0/33"]) != nil)
        #expect(problem(["TRUSTED_PROXIES_HEADER": "forwarded"]) == nil)
        #expect(problem(["TRUSTED_PROXIES_HEADER": "X-Real-IP"])
            == #"configuration error: TRUSTED_PROXIES_HEADER must be X-Forwarded-For or Forwarded, got "X-Real-IP""#)
    }

    @Test func theEndpointsFileSetsLimitsPerEndpointAndProxy() throws {
        let file = try EndpointsFile(
            parsing: Array(#"""
                {"endpoints":[
                  {"path":"/v2/a","rate_limit":"5/s burst 10","response":{}},
                  {"path":"/v2/b","rate_limit":"off","response":{}},
                  {"path":"/v2/c","response":{}}],
                 "proxies":[{"path":"/p","upstream":"swapi","rate_limit":"100/min"}]}
                """#.utf8), alongside: .reference)
        #expect(file.endpoints.map(\.rateLimit) == [.limit(RateLimitPolicy(5, per: .second, burst: 10)), .off, .default])
        #expect(file.proxies.map(\.rateLimit) == [.limit(RateLimitPolicy(100, per: .minute))])
        #expect(throws: EndpointsFileError.self) {
            try EndpointsFile(parsing: Array(#"{"endpoints":[{"path":"/v2/a","rate_limit":"5 per second","response":{}}]}"#.utf8), alongside: .reference)
        }
        do {
            _ = try EndpointsFile(parsing: Array(#"{"proxies":[{"path":"/p","upstream":"swapi","rate_limit":7}]}"#.utf8), alongside: .reference)
            Issue.record("a number is not a rate limit")
        } catch {
            #expect(error.fault == "proxies[0]: rate_limit must be a string")
        }
    }
}
