import Foundation
import GatewayTesting
import HTTPBasics
import Testing

@testable import Gateway

/// CORS and `X-Content-Type-Options` through real sockets: preflights answered before
/// authentication for every kind of route, the fields on answers and refusals, a proxied
/// upstream's own fields replaced.
@Suite struct CrossOriginEndToEndTests {
    struct Hello: Codable, Sendable {
        var hello: String
    }

    static let things = UpstreamDefinition(name: "things", defaultBaseURL: "http://127.0.0.1:1")

    /// `/v1/hello` requires a token; `/ct` passes anything to the `things` stub without one.
    static let catalog = GatewayCatalog(
        upstreams: [things],
        endpoints: [Endpoint("/v1/hello", summary: "Hello", upstreams: [], example: Hello(hello: "world")) { _ in Hello(hello: "world") }],
        proxies: [ProxyRoute("/ct", upstream: things, authentication: .none)])

    /// The Ed25519 public key of RFC 8037 §A.2: a usable key set, though no test here signs a token.
    static let keySet = #"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"rfc8037","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#

    static let app = "https://app.example"

    static func preflight(_ method: String, from origin: String = app, headers: String? = nil) -> HTTPHeaders {
        var fields: HTTPHeaders = ["Origin": origin, "Access-Control-Request-Method": method]
        if let headers { fields.add("Access-Control-Request-Headers", headers) }
        return fields
    }

    static func withCORSGateway(
        _ extra: [String: String] = [:], _ body: (GatewayUnderTest, StubUpstream) async throws -> Void
    ) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json").path
        try Data(keySet.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        let environment = [
            "UPSTREAM_THINGS_URL": stub.baseURL, "AUTH_JWKS_FILE": path, "AUTH_ISSUER": "https://id.example", "AUTH_AUDIENCE": "bff",
            "CORS_ALLOWED_ORIGINS": "http://127.0.0.1:8200, \(app)", "CORS_ALLOW_CREDENTIALS": "on",
        ].merging(extra) { _, new in new }
        try await withGateway(catalog: catalog, environment: environment) { gateway in try await body(gateway, stub) }
    }

    @Test func preflightsAreAnsweredForEveryRouteWithoutAToken() async throws {
        try await Self.withCORSGateway { gateway, stub in
            let endpoint = try await gateway.send(.options, "/v1/hello", headers: Self.preflight("GET", headers: "authorization"))
            #expect(endpoint.status == 204)
            #expect(endpoint.body.isEmpty)
            #expect(endpoint.headers["Access-Control-Allow-Origin"] == Self.app)
            #expect(endpoint.headers["Access-Control-Allow-Credentials"] == "true")
            #expect(endpoint.headers["Access-Control-Allow-Methods"] == "GET, HEAD")
            #expect(endpoint.headers["Access-Control-Allow-Headers"] == "Authorization, Content-Type, X-Request-ID, traceparent, tracestate")
            #expect(endpoint.headers["Access-Control-Max-Age"] == "600")
            #expect(endpoint.headers["Vary"] == "Origin")
            #expect(endpoint.headers["X-Content-Type-Options"] == "nosniff")
            #expect(endpoint.headers["X-Request-ID"] != nil)
            #expect(!endpoint.headers.contains("Access-Control-Expose-Headers"))

            let proxied = try await gateway.send(.options, "/ct/things/1", headers: Self.preflight("PUT"))
            #expect(proxied.status == 204)
            #expect(proxied.headers["Access-Control-Allow-Methods"] == "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
            #expect(stub.received.isEmpty, "the gateway answers a preflight itself")
            let operations = try await gateway.send(.options, "/metrics", headers: Self.preflight("GET"))
            #expect(operations.status == 204 && operations.headers["Access-Control-Allow-Methods"] == "GET, HEAD")

            let other = try await gateway.send(.options, "/v1/hello", headers: Self.preflight("GET", from: "https://evil.example"))
            #expect(other.status == 204)
            #expect(other.headers["Vary"] == "Origin")
            #expect(!other.headers.contains { $0.name.hasPrefix("Access-Control-") })

            // A path no route serves, or a method its route lacks, is answered as before, readable.
            let unknown = try await gateway.send(.options, "/nowhere", headers: Self.preflight("GET"))
            #expect(unknown.status == 404 && unknown.headers["Access-Control-Allow-Origin"] == Self.app)
            let wrongMethod = try await gateway.send(.options, "/v1/hello", headers: Self.preflight("DELETE"))
            #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "GET, HEAD")
            #expect(stub.received.isEmpty)

            // An OPTIONS without Access-Control-Request-Method is no preflight: a proxy route relays it.
            stub.answer("/things/1", method: .options, status: 200, json: "{}", headers: ["Allow": "GET"])
            let relayed = try await gateway.send(.options, "/ct/things/1", headers: ["Origin": Self.app])
            #expect(relayed.status == 200 && stub.received.map(\.method) == ["OPTIONS"])
            #expect(relayed.headers["Access-Control-Allow-Origin"] == Self.app)

            let metrics = try await gateway.get("/metrics").text
            #expect(metrics.contains(#"gateway_requests_total{route="preflight",status="204"} 4"#))
        }
    }

    @Test func answersAndRefusalsCarryTheFieldsForAnAllowedOriginOnly() async throws {
        try await Self.withCORSGateway { gateway, _ in
            let refused = try await gateway.get("/v1/hello", headers: ["Origin": "http://127.0.0.1:8200"])
            #expect(refused.status == 401)
            #expect(refused.headers["Access-Control-Allow-Origin"] == "http://127.0.0.1:8200")
            #expect(refused.headers["Access-Control-Allow-Credentials"] == "true")
            #expect(refused.headers["Access-Control-Expose-Headers"] == "X-Request-ID, X-Gateway-Completed, RateLimit, RateLimit-Policy, Retry-After")
            #expect(refused.headers["Vary"] == "Origin")
            #expect(refused.headers["X-Content-Type-Options"] == "nosniff")

            for origin in ["https://evil.example", "http://127.0.0.1:8201", nil] {
                let answer = try await gateway.get("/healthz", headers: origin.map { ["Origin": $0] } ?? [:])
                #expect(answer.status == 200)
                #expect(answer.headers["Vary"] == "Origin")
                #expect(!answer.headers.contains { $0.name.hasPrefix("Access-Control-") }, "\(origin ?? "no origin")")
            }
        }
    }

    @Test func aProxiedUpstreamsOwnCORSAndNosniffFieldsGiveWay() async throws {
        try await Self.withCORSGateway { gateway, stub in
            stub.answer(
                "/things/1", status: 200, json: "{}",
                headers: ["Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET", "X-Content-Type-Options": "nosniff"])
            let answer = try await gateway.get("/ct/things/1", headers: ["Origin": Self.app])
            #expect(answer.status == 200)
            #expect(answer.headers.values(named: "Access-Control-Allow-Origin") == [Self.app])
            #expect(!answer.headers.contains("Access-Control-Allow-Methods"))
            #expect(answer.headers.values(named: "X-Content-Type-Options") == ["nosniff"])
        }
    }

    @Test func withoutCORSPreflightsAreAnsweredAsBeforeAndEveryAnswerSaysNosniff() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        try await withGateway(catalog: Self.catalog, environment: ["UPSTREAM_THINGS_URL": stub.baseURL]) { gateway in
            let preflight = try await gateway.send(.options, "/v1/hello", headers: Self.preflight("GET"))
            #expect(preflight.status == 405)
            #expect(!preflight.headers.contains("Vary") && !preflight.headers.contains("Access-Control-Allow-Origin"))
            #expect(preflight.headers["X-Content-Type-Options"] == "nosniff")
            #expect(try await gateway.get("/v1/hello").headers["X-Content-Type-Options"] == "nosniff")
            // A request the server refuses before any responder sees it.
            let refused = try await RawHTTP.exchange("GET /v1/hello HTTP/1.1\r\nHost: a\r\nBad Field: x\r\n\r\n", port: gateway.port)
            #expect(RawHTTP.status(of: refused) == 400)
            #expect(refused.contains("\r\nX-Content-Type-Options: nosniff\r\n"))
        }
    }

    @Test func startUpRefusesAnyOriginWithCredentials() async {
        let (status, lines) = await OperatorCommandTests.command(
            ["--check"], ["CORS_ALLOWED_ORIGINS": "*", "CORS_ALLOW_CREDENTIALS": "on"])
        #expect(status == 2)
        #expect(lines == [
            "!configuration error: CORS_ALLOWED_ORIGINS cannot be * with CORS_ALLOW_CREDENTIALS=on: a page of any site could then act with its visitor's cookies; list the origins"
        ])
    }
}
