import GatewayTesting
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// What readiness and the circuit breaker make of failing upstreams, through sockets: a client
/// cannot open a circuit for everyone with an origin's answers, a dead upstream still opens its
/// circuit at once, and neither takes the replica out of its load balancer.
@Suite("Readiness and the breaker: one client cannot take the replica out")
struct ReadinessTests {
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    static let catalog = GatewayCatalog(
        upstreams: [origin], endpoints: [], proxies: [ProxyRoute("/api", upstream: origin, authentication: .none)])

    /// The stub's answers: `/live/bad/…` 500, anything else under `/live/` 200.
    private static func origin(_ stub: StubUpstream) {
        stub.answer(under: "/live/bad/", status: .internalServerError, body: "broken path")
        stub.answer(under: "/live/good", status: .ok, headers: ["Content-Type": "text/plain", "Server": "origin/1.2.3"], body: "fine")
    }

    private static func circuitGauge(_ metrics: String) -> String? {
        metrics.split(separator: "\n").first { $0.hasPrefix(#"gateway_upstream_circuit_open{upstream="origin"}"#) }.map(String.init)
    }

    @Test("five 500s on one path of a proxy route: another path answers 200, /readyz 200, the circuit closed")
    func answersDoNotOpenTheCircuit() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        Self.origin(stub)
        try await withGateway(catalog: Self.catalog, environment: ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/live"]) { gateway in
            for index in 1...5 {
                let bad = try await gateway.get("/api/bad/\(index)")
                #expect(bad.status == 500 && bad.text == "broken path")
            }
            let good = try await gateway.get("/api/good")
            #expect(good.status == 200 && good.text == "fine")
            // The origin's software is its own business, as behind nginx.
            #expect(good.headers["Server"] == nil)
            let ready = try await gateway.get("/readyz")
            #expect(ready.status == 200 && ready.text == #"{"status":"ready"}"#)
            #expect(Self.circuitGauge(try await gateway.get("/metrics").text) == #"gateway_upstream_circuit_open{upstream="origin"} 0"#)
            #expect(stub.received.count { $0.path.hasPrefix("/live/bad/") } == 5)
        }
    }

    @Test("a refused upstream opens its circuit after five calls and gets 503 at once; /readyz stays 200 and names it")
    func refusedUpstreamOpensTheCircuit() async throws {
        // Port 9 (discard) on loopback: nothing listens, every connection is refused.
        let environment = ["UPSTREAM_ORIGIN_URL": "http://127.0.0.1:9", "UPSTREAM_ORIGIN_RETRY_BACKOFF_MS": "0"]
        try await withGateway(catalog: Self.catalog, environment: environment) { gateway in
            let start = ContinuousClock.now
            var statuses: [Int] = []
            for index in 1...6 {
                statuses.append(try await gateway.get("/api/items/\(index)").status)
            }
            #expect(statuses == [502, 502, 502, 502, 502, 503])
            let paused = try await gateway.get("/api/other")
            #expect(paused.status == 503 && paused.text.contains("calls are paused"))
            #expect(paused.headers["Retry-After"] != nil)
            // Refusals come back at once: seconds would mean waiting on timeouts.
            #expect(start.duration(to: .now) < .seconds(3))
            let ready = try await gateway.get("/readyz")
            #expect(ready.status == 200)
            #expect(ready.text == #"{"status":"ready","open_circuits":["origin"]}"#)
            #expect(Self.circuitGauge(try await gateway.get("/metrics").text) == #"gateway_upstream_circuit_open{upstream="origin"} 1"#)
        }
    }

    @Test("BREAKER_SERVER_ERRORS=on: the origin's 500s open the circuit for every path, and /readyz still says ready")
    func serverErrorsCountWhenAskedTo() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        Self.origin(stub)
        let environment = ["UPSTREAM_ORIGIN_URL": stub.baseURL + "/live", "UPSTREAM_ORIGIN_BREAKER_SERVER_ERRORS": "on"]
        try await withGateway(catalog: Self.catalog, environment: environment) { gateway in
            for index in 1...5 {
                #expect(try await gateway.get("/api/bad/\(index)").status == 500)
            }
            #expect(try await gateway.get("/api/good").status == 503)
            let ready = try await gateway.get("/readyz")
            #expect(ready.status == 200 && ready.text == #"{"status":"ready","open_circuits":["origin"]}"#)
        }
    }

    @Test("a combined answer whose optional part keeps failing is a degraded 200, and /readyz stays 200")
    func degradedAnswerKeepsReadiness() async throws {
        try await withScenarioGateway { test, stubs throws in
            stubs.answer(under: "/menu/dish_of_the_day.json", status: .internalServerError, body: "SIM-UPSTREAM-BODY")
            for _ in 0..<8 {
                let menu = try await test.get("/v1/menu")
                #expect(menu.status == 200 && menu.text.hasSuffix(#""degraded":["dishOfTheDay"]}"#))
            }
            let ready = try await test.get("/readyz")
            #expect(ready.status == 200 && ready.text == #"{"status":"ready"}"#)
        }
    }
}
