import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway

/// Issue #30: an upstream that echoes its request showed the gateway's own token to any client of
/// a proxy route. A route withholds the upstream's credentials unless it says to send them.
@Suite("Proxy routes: the gateway's upstream credentials")
struct ProxyCredentialsTests {
    static let origin = UpstreamDefinition(name: "origin", defaultBaseURL: "http://127.0.0.1:9")
    /// A combined endpoint whose call puts the upstream's session cookie in the gateway's jar.
    static let login = Endpoint("/v1/login", summary: "Logs the gateway in", upstreams: [origin], example: ["ok": 1]) { call in
        try await call.upstream(origin).get("login", as: [String: Int].self)
    }

    @Test("by default neither the token, the configured headers nor the jar's session reach a route's upstream, so an echo cannot show them")
    func withheldByDefault() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer(under: "/") { request in
            if request.path == "/login" {
                return HTTPResponse(
                    status: .ok, headers: ["Set-Cookie": "gateway-session=s3cret; Path=/", "Content-Type": "application/json"],
                    body: Array(#"{"ok":1}"#.utf8))
            }
            let echoed = request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(echoed.utf8))
        }
        let file = try EndpointsFile(
            parsing: Array(#"{"proxies":[{"path":"/echo","upstream":"origin","authentication":"none"},"#.utf8)
                + Array(#"{"path":"/trusted","upstream":"origin","authentication":"none","upstream_credentials":"send"}]}"#.utf8),
            alongside: GatewayCatalog(upstreams: [Self.origin], endpoints: [Self.login]))
        let catalog = GatewayCatalog(upstreams: [Self.origin], endpoints: [Self.login]).adding(file)
        let environment = [
            "UPSTREAM_ORIGIN_URL": stub.baseURL, "UPSTREAM_ORIGIN_BEARER_TOKEN": "gateway-own-secret",
            "UPSTREAM_ORIGIN_HEADERS": "X-Api-Key: key-123",
        ]
        try await withGateway(catalog: catalog, environment: environment) { gateway in
            let login = try await gateway.get("/v1/login")
            #expect(login.status == 200, "\(login.text)")
            let echoed = try await gateway.get("/echo/anything")
            #expect(echoed.status == 200)
            #expect(!echoed.text.contains("gateway-own-secret") && !echoed.text.contains("key-123") && !echoed.text.contains("gateway-session"))
            let own = try await gateway.get("/echo/anything", headers: ["Authorization": "Bearer client-token"])
            #expect(own.text.contains("Authorization: Bearer client-token"))
            let trusted = try await gateway.get("/trusted/anything", headers: ["Authorization": "Bearer client-token"])
            #expect(trusted.text.contains("Authorization: Bearer gateway-own-secret") && trusted.text.contains("X-Api-Key: key-123"))
            #expect(trusted.text.contains("Cookie: gateway-session=s3cret"))
            #expect(!trusted.text.contains("client-token"))
        }
    }

    @Test("upstream_credentials is withhold or send")
    func fileField() throws {
        #expect(EndpointsFileTests.fault(#"{"proxies":[{"path":"/p","upstream":"swapi","upstream_credentials":"yes"}]}"#)
            == "proxy /p: upstream_credentials must be \"withhold\" or \"send\"")
        #expect(try EndpointsFileTests.parse(#"{"proxies":[{"path":"/p","upstream":"swapi","upstream_credentials":"send"}]}"#)
            .proxies.first?.upstreamCredentials == .sent)
        #expect(try EndpointsFileTests.parse(#"{"proxies":[{"path":"/p","upstream":"swapi"}]}"#).proxies.first?.upstreamCredentials == .withheld)
    }

    @Test("--check says of each proxy route whether it sends its upstream's credentials")
    func checkSummary() async throws {
        let path = try OperatorCommandTests.write(
            #"{"proxies":[{"path":"/a","upstream":"swapi"},{"path":"/b","upstream":"swapi","upstream_credentials":"send"}]}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let checked = await OperatorCommandTests.command(["--check"], ["GATEWAY_ENDPOINTS_FILE": path, "GATEWAY_REFERENCE_ENDPOINTS": "off"])
        #expect(checked.status == 0)
        #expect(checked.lines.contains("  ANY /a/* -> swapi; auth: none (no key set); rate limit: off (default)"))
        #expect(checked.lines.contains("  ANY /b/* -> swapi; auth: none (no key set); rate limit: off (default); upstream credentials: sent"))
    }

    @Test("an answer on a route that withholds the credentials cannot replace the gateway's token, even echoing X-Refreshed-Token")
    func refreshedTokenFromAClient() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer(under: "/") { request in
            // As httpbin's /response-headers does: the query's fields come back as answer fields.
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            if request.path == "/response-headers", let query = request.query, let equals = query.firstIndex(of: "=") {
                headers.add(String(query[..<equals]), String(query[query.index(after: equals)...]))
            }
            return HTTPResponse(status: .ok, headers: headers, body: Array(#"{"ok":1}"#.utf8))
        }
        let file = try EndpointsFile(
            parsing: Array(#"{"proxies":[{"path":"/echo","upstream":"origin","authentication":"none"}]}"#.utf8),
            alongside: GatewayCatalog(upstreams: [Self.origin], endpoints: [Self.login]))
        let catalog = GatewayCatalog(upstreams: [Self.origin], endpoints: [Self.login]).adding(file)
        let environment = ["UPSTREAM_ORIGIN_URL": stub.baseURL, "UPSTREAM_ORIGIN_BEARER_TOKEN": "gateway-own-secret"]
        try await withGateway(catalog: catalog, environment: environment) { gateway in
            let reflected = try await gateway.get("/echo/response-headers?X-Refreshed-Token=attacker")
            #expect(reflected.status == 200 && reflected.headers["X-Refreshed-Token"] == nil)
            #expect(try await gateway.get("/v1/login").status == 200)
            #expect(stub.received.last?.headers["Authorization"] == "Bearer gateway-own-secret")
        }
    }
}
