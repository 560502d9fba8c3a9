import Foundation
import GatewayTesting
import HTTP1Client
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// The gateway in-process against stub upstreams served by our own server on loopback.
@Suite("End to end against stub upstreams")
struct EndToEndTests {
    static let expectedMenu =
        #"{"dishOfTheDay":{"name":"Spaghetti Carbonara","price":7.5,"spicy":false},"sections":[{"category":"pastas","items":[{"name":"Penne all'Arrabbiata","price":4.5,"spicy":true},{"name":"Tortiglioni alla Puttanesca","price":4.5,"spicy":false},{"name":"Spaghetti Aglio, Olio, e Peperoncino","price":8,"spicy":true},{"name":"Tortellini alla Panna","price":6,"spicy":false}]},{"category":"starters","items":[{"name":"Caprese Salad","price":6,"spicy":false},{"name":"Arancini Balls","price":6,"spicy":false}]},{"category":"desserts","items":[{"name":"Tiramisù","price":6,"spicy":false},{"name":"Panna Cotta","price":6,"spicy":false}]},{"category":"drinks","items":[{"name":"Sangiovese (Red Wine)","price":4.5,"spicy":false},{"name":"Prosecco (White Wine)","price":4.5,"spicy":false},{"name":"Water","price":1,"spicy":false}]}],"degraded":[]}"#

    static let expectedLuke =
        #"{"id":1,"name":"Luke Skywalker","birthYear":"19BBY","homeworld":{"name":"Tatooine","climate":"arid","population":200000},"starships":[{"name":"X-wing","model":"T-65 X-wing","class":"Starfighter"},{"name":"Imperial shuttle","model":"Lambda-class T-4a shuttle","class":"Armed government transport"}],"degraded":[]}"#

    @Test("GET /v1/menu: exact JSON, headers and echoed request id")
    func menu() async throws {
        try await withScenarioGateway { test, stubs in
            let response = try await test.get("/v1/menu", headers: ["X-Request-ID": "bench-check-v1-menu"])
            #expect(response.status == 200)
            #expect(response.text == Self.expectedMenu)
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.headers["X-Gateway-Completed"] == "true")
            #expect(response.headers["X-Request-ID"] == "bench-check-v1-menu")
        }
    }

    /// The fields of each request's one `traceparent`: version, trace id, parent id, flags.
    private static func traceParents(_ received: [StubUpstream.ReceivedRequest]) -> [[Substring]] {
        received.map { request in
            let fields = request.headers.values(named: "traceparent")
            return fields.count == 1 ? fields[0].split(separator: "-", omittingEmptySubsequences: false) : []
        }
    }

    @Test("GET /v1/people/1: exact JSON; the request id, the client's trace and tracestate reach every call, each with a parent id of its own")
    func person() async throws {
        try await withScenarioGateway { test, stubs in
            let traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            let response = try await test.get(
                "/v1/people/1", headers: ["X-Request-ID": "rid-42", "traceparent": traceParent, "tracestate": "vendor=opaque,other=1"])
            #expect(response.status == 200)
            #expect(response.text == Self.expectedLuke)
            #expect(response.headers["X-Gateway-Completed"] == "true")
            let received = stubs.received
            #expect(received.map(\.path).sorted() == ["/swapi/api/people/1/", "/swapi/api/planets/1/", "/swapi/api/starships/12/", "/swapi/api/starships/22/"])
            #expect(received.allSatisfy { $0.headers["X-Request-ID"] == "rid-42" })
            #expect(received.allSatisfy { $0.headers.values(named: "tracestate") == ["vendor=opaque,other=1"] })
            let fields = Self.traceParents(received)
            #expect(fields.allSatisfy { $0.count == 4 && $0[0] == "00" && $0[1] == "4bf92f3577b34da6a3ce929d0e0e4736" && $0[3] == "01" })
            let parents = Set(fields.compactMap { $0.count == 4 ? $0[2] : nil })
            #expect(parents.count == received.count)
            #expect(parents.allSatisfy { $0.utf8.count == 16 && $0 != "0000000000000000" && $0 != "00f067aa0ba902b7" })
        }
    }

    @Test("an unsafe request id is replaced; an invalid traceparent starts a new sampled trace and its tracestate is dropped")
    func unsafeIdentity() async throws {
        try await withScenarioGateway { test, stubs in
            let response = try await test.get("/v1/people/20", headers: ["X-Request-ID": "bad id", "traceparent": "00-zz", "tracestate": "vendor=x"])
            let id = try #require(response.headers["X-Request-ID"])
            #expect(id != "bad id" && RequestID.isSane(id))
            let received = stubs.received
            #expect(received.allSatisfy { $0.headers["X-Request-ID"] == id && !$0.headers.contains("tracestate") })
            #expect(received.allSatisfy { $0.headers["traceparent"].flatMap(TraceParent.parse) != nil })
            let fields = Self.traceParents(received)
            #expect(fields.allSatisfy { $0.count == 4 && $0[0] == "00" && $0[3] == "01" })
            #expect(Set(fields.compactMap { $0.count == 4 ? $0[1] : nil }).count == 1)
            #expect(Set(fields.compactMap { $0.count == 4 ? $0[2] : nil }).count == received.count)
            #expect(response.text.contains(#""homeworld":{"name":"unknown","climate":"unknown","population":null}"#))
        }
    }

    @Test("GET /v1/deal: shuffle with enough decks, one draw, hands round-robin")
    func deal() async throws {
        try await withScenarioGateway { test, stubs in
            let response = try await test.get("/v1/deal?players=8&cards=13")
            #expect(response.status == 200)
            let body = try #require(JSONValue(parsing: response.body))
            guard case .array(let hands)? = body["hands"] else { Issue.record("no hands"); return }
            #expect(hands.count == 8)
            #expect(body["remaining"] == .integer(0))
            let targets = stubs.received.map(\.target)
            #expect(targets.first == "/deck/api/deck/new/shuffle/?deck_count=2")
            #expect(targets.count == 2 && targets[1].hasSuffix("/draw/?count=104"))
        }
    }

    @Test("out-of-range parameters are a 400 problem", arguments: ["/v1/deal?players=9", "/v1/deal?cards=0", "/v1/deal?players=x", "/v1/people/0", "/v1/people/-1", "/v1/people/abc"])
    func badInput(target: String) async throws {
        try await withScenarioGateway { test, stubs in
            let response = try await test.get(target)
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(stubs.received.isEmpty)
        }
    }

    @Test("unknown path 404, other method 405 with Allow")
    func routing() async throws {
        try await withScenarioGateway { test, stubs in
            #expect(try await test.get("/v2/nothing").status == 404)
            let response = try await test.send(.post, "/v1/menu")
            #expect(response.status == 405)
            #expect(response.headers["Allow"]?.contains("GET") == true)
            #expect(response.headers["X-Request-ID"] != nil)
        }
    }

    @Test("the dish of the day is optional: degraded, completed false")
    func menuWithoutDish() async throws {
        try await withScenarioGateway { test, stubs in
            stubs.answer(under: "/menu/dish_of_the_day.json", status: .internalServerError, body: "SIM-UPSTREAM-BODY")
            let response = try await test.get("/v1/menu")
            #expect(response.status == 200)
            #expect(response.headers["X-Gateway-Completed"] == "false")
            #expect(response.text.hasPrefix(#"{"dishOfTheDay":null,"sections":[{"category":"pastas""#))
            #expect(response.text.hasSuffix(#""degraded":["dishOfTheDay"]}"#))
        }
    }

    @Test("a failed homeworld or starship degrades the person")
    func partialPerson() async throws {
        try await withScenarioGateway { test, stubs in
            stubs.answer(under: "/swapi/api/planets/", status: .serviceUnavailable, body: "SIM-UPSTREAM-BODY")
            stubs.answer(under: "/swapi/api/starships/22/", status: .ok, body: #"{"name":"#)
            let response = try await test.get("/v1/people/1")
            #expect(response.status == 200)
            #expect(response.headers["X-Gateway-Completed"] == "false")
            #expect(response.text == #"{"id":1,"name":"Luke Skywalker","birthYear":"19BBY","homeworld":null,"starships":null,"degraded":["homeworld","starships"]}"#)
        }
    }

    @Test("links outside the swapi base are refused and never requested")
    func foreignLinks() async throws {
        try await withScenarioGateway { test, stubs in
            stubs.answer(under: 
                "/swapi/api/people/1/", status: .ok,
                body: #"{"name":"Luke Skywalker","birth_year":"19BBY","homeworld":"http://127.0.0.1:1/swapi/api/planets/1/","starships":["\#(stubs.baseURL)/elsewhere/starships/12/"]}"#)
            let response = try await test.get("/v1/people/1")
            #expect(response.status == 200)
            #expect(response.text.hasSuffix(#""homeworld":null,"starships":null,"degraded":["homeworld","starships"]}"#))
            #expect(stubs.received.map(\.path) == ["/swapi/api/people/1/"])
        }
    }

    @Test(
        "a failing primary upstream maps to its status, never relaying the upstream's body",
        arguments: [
            (HTTPStatus.notFound, HTTPStatus.notFound, "upstream swapi answered 404"),
            (.internalServerError, .badGateway, "upstream swapi answered 500"),
            (.badGateway, .badGateway, "upstream swapi answered 502"),
            (.forbidden, .badGateway, "upstream swapi answered 403"),
        ])
    func primaryStatus(upstream: HTTPStatus, expected: HTTPStatus, detail: String) async throws {
        try await withScenarioGateway { test, stubs in
            stubs.answer(under: "/swapi/api/people/", status: upstream, body: "SIM-UPSTREAM-BODY trace at Foo.swift:12")
            let response = try await test.get("/v1/people/3")
            #expect(response.status == expected.code)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text == #"{"type":"about:blank","title":"\#(expected.reasonPhrase)","status":\#(expected.code),"detail":"\#(detail)","instance":"/v1/people/3"}"#)
        }
    }

    @Test("invalid JSON from the primary upstream is a 502")
    func invalidJSON() async throws {
        try await withScenarioGateway { test, stubs in
            stubs.answer(under: "/menu/menu_response.json", status: .ok, body: #"[{"name":"SIM-UPSTREAM-BODY"#)
            let response = try await test.get("/v1/menu")
            #expect(response.status == 502)
            #expect(!response.text.contains("SIM-UPSTREAM-BODY"))
        }
    }

    @Test("an oversized body is a 502")
    func oversized() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_MENU_MAX_RESPONSE_BYTES": "2048"]) { test, stubs in
            stubs.answer(under: "/menu/menu_response.json", status: .ok, body: "[" + String(repeating: "1,", count: 4000) + "1]")
            let response = try await test.get("/v1/menu")
            #expect(response.status == 502)
            #expect(response.text.contains("over 2048 bytes"))
        }
    }

    @Test("a refused connection is a 502")
    func refused() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_MENU_URL": "http://127.0.0.1:1/menu"]) { test, stubs in
            let response = try await test.get("/v1/menu")
            #expect(response.status == 502)
            #expect(response.text.contains("upstream menu could not be reached"))
        }
    }

    @Test("a reset connection is a 502")
    func reset() async throws {
        let resetting = try MisbehavingUpstream(.reset)
        defer { resetting.shutdown() }
        try await withScenarioGateway(environment: ["UPSTREAM_MENU_URL": "http://127.0.0.1:\(resetting.port)/menu"]) { test, stubs in
            let response = try await test.get("/v1/menu")
            #expect(response.status == 502)
            #expect(response.text.contains("upstream menu could not be reached"))
        }
    }

    @Test("a client that leaves cancels the upstream calls in flight")
    func cancellation() async throws {
        // In process: the answer to a client that left is the responder's, never written.
        let stubs = try StubUpstream.scenario()
        defer { stubs.shutdown() }
        let gateway = try stubs.referenceGatewayWithoutServer()
        let (arrived, signal) = AsyncStream<Void>.makeStream()
        stubs.answer(under: "/swapi/api/people/") { _ in
            signal.yield()
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: .ok)
        }
        let start = ContinuousClock.now
        let request = Task { await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/v1/people/1")) }
        for await _ in arrived { break }
        request.cancel()
        let response = await request.value
        #expect(response.status == .clientClosedRequest)
        #expect(start.duration(to: .now) < .seconds(5))
    }

    @Test("429 is a 503 carrying the upstream's Retry-After")
    func rateLimited() async throws {
        try await withScenarioGateway { test, stubs in
            stubs.answer(under: "/deck/api/deck/new/", status: .tooManyRequests, headers: ["Retry-After": "7"], body: "slow down")
            let response = try await test.get("/v1/deal")
            #expect(response.status == 503)
            #expect(response.headers["Retry-After"] == "7")
            #expect(response.text.contains("upstream deck answered 429"))
        }
    }

    @Test("500s leave the circuit closed by default; counted (BREAKER_SERVER_ERRORS=on) they open it, and readiness names it without failing")
    func circuitOpen() async throws {
        try await withScenarioGateway { test, stubs throws in
            stubs.answer(under: "/swapi/api/people/", status: .internalServerError, body: "SIM-UPSTREAM-BODY")
            for _ in 0..<8 {
                #expect(try await test.get("/v1/people/1").status == 502)
            }
            #expect(stubs.received.count == 8)
            #expect(try await test.get("/readyz").text == #"{"status":"ready"}"#)
        }
        try await withScenarioGateway(environment: ["UPSTREAM_SWAPI_BREAKER_SERVER_ERRORS": "on"]) { test, stubs in
            stubs.answer(under: "/swapi/api/people/", status: .internalServerError, body: "SIM-UPSTREAM-BODY")
            var statuses: [Int] = []
            for _ in 0..<8 {
                statuses.append(try await test.get("/v1/people/1").status)
            }
            #expect(statuses.first == 502)
            #expect(statuses.last == 503)
            let readiness = try await test.get("/readyz")
            #expect(readiness.status == 200)
            #expect(readiness.text == #"{"status":"ready","open_circuits":["swapi"]}"#)
            #expect(stubs.received.count < 8)
        }
    }

    @Test("an upstream slower than its timeout is a 504")
    func timeout() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_SWAPI_TIMEOUT_MS": "100"]) { test, stubs in
            stubs.answer(under: "/swapi/api/people/", after: .seconds(10))
            let start = ContinuousClock.now
            let response = try await test.get("/v1/people/1")
            #expect(response.status == 504)
            // Well before the answer would come, with room for two cores busy with the rest of the suite.
            #expect(start.duration(to: .now) < .seconds(5))
        }
    }

    @Test("the request deadline bounds every upstream call")
    func requestDeadline() async throws {
        // Two seconds leave the person and homeworld calls room on a machine busy with other
        // work; the starships never answer within them.
        try await withScenarioGateway(environment: ["REQUEST_DEADLINE_MS": "2000"]) { test, stubs in
            stubs.answer(under: "/swapi/api/starships/", after: .seconds(8))
            let start = ContinuousClock.now
            let response = try await test.get("/v1/people/1")
            #expect(response.status == 200)
            #expect(response.text.hasSuffix(#""starships":null,"degraded":["starships"]}"#))
            #expect(start.duration(to: .now) < .seconds(6))
        }
    }

    @Test("no retry's back-off sleeps past the request deadline")
    func backoffWithinTheRequestDeadline() async throws {
        // The upstream asks for 2 s before a retry, which its own deadline allows; the request's
        // 1 s does not, so the failure is answered at once rather than after the wait. Without a
        // cache, so that the call carries the request's deadline (a coalesced fetch does not: its
        // callers stop waiting for it at their deadlines).
        try await withScenarioGateway(environment: ["REQUEST_DEADLINE_MS": "1000", "CACHE_MAX_BYTES": "0"]) { test, stubs in
            stubs.answer(under: "/swapi/api/people/", status: .serviceUnavailable, headers: ["Retry-After": "2"], body: "{}")
            let start = ContinuousClock.now
            let response = try await test.get("/v1/people/1")
            #expect(start.duration(to: .now) < .milliseconds(1050))
            #expect(response.status == 502)
            #expect(stubs.received.count == 1)
        }
    }

    @Test("a configured bearer token and headers go with every request from the first")
    func credentials() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_SWAPI_BEARER_TOKEN": "s3cret", "UPSTREAM_SWAPI_HEADERS": "X-Api-Key: k1"]) { test, stubs in
            _ = try await test.get("/v1/people/1")
            let received = stubs.received
            #expect(received.count == 4)
            #expect(received.allSatisfy { $0.headers["Authorization"] == "Bearer s3cret" && $0.headers["X-Api-Key"] == "k1" })
        }
    }

    @Test("metrics count requests by route and status, and upstream calls by outcome")
    func metrics() async throws {
        try await withScenarioGateway { test, stubs in
            _ = try await test.get("/v1/people/1")
            _ = try await test.get("/v1/people/abc")
            _ = try await test.get("/nowhere")
            let text = try await test.get("/metrics").text
            #expect(text.contains(#"gateway_requests_total{route="/v1/people/:id",status="200"} 1"#))
            #expect(text.contains(#"gateway_requests_total{route="/v1/people/:id",status="400"} 1"#))
            #expect(text.contains(#"gateway_requests_total{route="unmatched",status="404"} 1"#))
            #expect(text.contains(#"gateway_upstream_calls_total{upstream="swapi",outcome="success"} 4"#))
            #expect(text.contains(#"gateway_request_duration_seconds_count{route="/v1/people/:id"} 2"#))
        }
    }

    @Test("health, readiness and the endpoint index")
    func operations() async throws {
        // In process, without a server: readiness follows the server attached and its shutdown.
        let stubs = try StubUpstream.scenario()
        defer { stubs.shutdown() }
        let gateway = try stubs.referenceGatewayWithoutServer()
        func get(_ target: String) async -> HTTPResponse {
            await gateway.responder.respond(to: HTTPRequest(method: .get, target: target))
        }
        #expect(await get("/healthz").status == .ok)
        #expect(await get("/readyz").status == .serviceUnavailable)
        gateway.status.attach(try HTTPServer(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), responder: gateway.responder).metrics)
        #expect(await get("/readyz").status == .ok)
        gateway.status.beginShutdown()
        #expect(String(decoding: await get("/readyz").body, as: UTF8.self).contains("shutting down"))
        let index = String(decoding: await get("/").body, as: UTF8.self)
        for path in ["/v1/menu", "/v1/people/{id}", "/v1/deal", "/healthz", "/readyz", "/metrics", "/openapi.json"] {
            #expect(index.contains(#""path":"\#(path)""#))
        }
    }

    @Test("/openapi.json is valid JSON listing every served route")
    func openAPI() async throws {
        try await withScenarioGateway { test, stubs in
            let document = try #require(JSONValue(parsing: try await test.get("/openapi.json").body))
            #expect(document["openapi"] == "3.1.0")
            guard case .object(let paths)? = document["paths"] else { Issue.record("no paths"); return }
            let documented = Set(paths.map(\.0))
            let served = Set(test.served.router.routes.map { RouteDocumentation(method: $0.method, path: $0.pattern, summary: "", parameters: [], responses: []).openAPIPath })
            #expect(documented == served)
            let person = try #require(document["paths"]?["/v1/people/{id}"]?["get"])
            #expect(person["parameters"] != nil)
            #expect(person["responses"]?["504"]?["content"]?["application/problem+json"] != nil)
        }
    }

    @Test("--demo: the fixture upstreams serve all three endpoints offline, with curl commands to try")
    func demo() async throws {
        let demo = try DemoUpstreams()
        defer { demo.shutdown() }
        let configuration = try GatewayConfiguration(environment: demo.environment, upstreams: GatewayCatalog.reference.upstreams)
        let gateway = try Gateway(configuration: configuration, catalog: .reference, transport: UpstreamTransports(for: configuration).make)
        let person = await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/v1/people/1"))
        #expect(String(decoding: person.body, as: UTF8.self) == Self.expectedLuke)
        let deal = await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/v1/deal?players=3&cards=4"))
        #expect(deal.status == .ok && String(decoding: deal.body, as: UTF8.self).hasSuffix(#""remaining":40}"#))
        let banner = demo.banner(gatewayURL: "http://127.0.0.1:8080")
        #expect(banner.components(separatedBy: "curl -s").count == 4)
    }

    @Test("over a real socket: the server answers with the echoed request id, on one event loop or several",
          arguments: ["1", "3"])
    func overSocket(eventLoops: String) async throws {
        try await withScenarioGateway(environment: ["EVENT_LOOPS": eventLoops]) { test, _ in
            let response = try await test.get("/v1/menu", headers: ["X-Request-ID": "socket-1"])
            #expect(response.status == 200)
            #expect(response.headers["X-Request-ID"] == "socket-1")
            #expect(response.text == Self.expectedMenu)
        }
    }

    @Test("DemoGateway: the fixtures and a gateway in one process answer over a socket, then stop")
    func demoGateway() async throws {
        let devNull = open("/dev/null", O_WRONLY)
        try #require(devNull >= 0)
        defer { close(devNull) }
        let demo = try DemoGateway(logDescriptor: devNull)
        let client = HTTPClient()
        defer { client.shutdown() }
        // Stopped on the failure path too: the gateway writes its log to `devNull` until then,
        // and a closed descriptor's number may already belong to another test's socket.
        let response: HTTPResponse
        do {
            response = try await client.send(
                HTTPClientRequest(method: .get, host: "127.0.0.1", port: demo.port, target: "/v1/menu"),
                timeout: .seconds(5), maximumResponseBytes: 1 << 20)
        } catch {
            await demo.stop()
            throw error
        }
        await demo.stop()
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedMenu)
    }
}
