import CallerIdentity
import Foundation
import GatewayTesting
import HTTPBasics
import Testing

@testable import Gateway

/// Routes that require scopes, through real sockets: a valid token without one is 403 with
/// RFC 6750's `insufficient_scope`, in Swift and in the endpoints file, for endpoints and proxies.
@Suite struct ScopeEndToEndTests {
    struct Menu: Codable, Sendable {
        var dishes: [String]
    }

    static let kitchen = UpstreamDefinition(name: "kitchen", defaultBaseURL: "http://127.0.0.1:1")

    static let catalog = GatewayCatalog(
        upstreams: [kitchen],
        endpoints: [
            Endpoint(
                "/v1/menu", summary: "Today's menu", authentication: .required(scopes: ["menu:read"]), upstreams: [kitchen],
                example: Menu(dishes: ["soup"])
            ) { call in
                try await call.upstream(kitchen).get("menu", as: Menu.self)
            }
        ],
        proxies: [ProxyRoute("/kitchen", upstream: kitchen, authentication: .required(scopes: ["kitchen:admin", "menu:read"]))])

    static let file = #"""
        {
          "endpoints": [
            { "path": "/v2/menu", "scopes": ["menu:read"],
              "calls": { "menu": { "upstream": "kitchen", "path": "/menu" } }, "response": { "dishes": "{menu.dishes}" } }
          ]
        }
        """#

    static func token(_ key: TestSigningKey, _ grant: String) -> HTTPHeaders {
        let claims = #"{"sub":"u","iss":"https://id.example","aud":"bff","exp":\#(Date().timeIntervalSince1970 + 600)\#(grant)}"#
        return ["Authorization": "Bearer " + key.token(claims)]
    }

    @Test func aTokenWithoutARequiredScopeIsForbidden() async throws {
        let key = TestSigningKey(.edDSA, keyID: "k")
        let path = try AuthenticationEndToEndTests.keySetFile([key])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/menu", json: #"{"dishes":["soup"]}"#)
        let catalog = Self.catalog.adding(try EndpointsFile(parsing: Array(Self.file.utf8), alongside: Self.catalog))
        let environment = [
            "UPSTREAM_KITCHEN_URL": stub.baseURL, "AUTH_JWKS_FILE": path, "AUTH_ISSUER": "https://id.example", "AUTH_AUDIENCE": "bff",
        ]
        try await withGateway(catalog: catalog, environment: environment) { gateway in
            for route in ["/v1/menu", "/v2/menu"] {
                #expect(try await gateway.get(route).status == 401)
                let forbidden = try await gateway.get(route, headers: Self.token(key, #","scope":"menu:write profile""#))
                #expect(forbidden.status == 403)
                #expect(forbidden.headers["WWW-Authenticate"] == #"Bearer realm="bff", error="insufficient_scope", scope="menu:read""#)
                #expect(forbidden.headers["Content-Type"] == "application/problem+json")
                #expect(forbidden.text.contains("the token does not grant every scope this route requires: menu:read"))
                #expect(try await gateway.get(route, headers: Self.token(key, "")).status == 403)
                #expect(stub.received.isEmpty, "no forbidden request reached the upstream")
            }
            for grant in [#","scope":"profile menu:read""#, #","scp":["menu:read"]"#] {
                #expect(try await gateway.get("/v1/menu", headers: Self.token(key, grant)).text == #"{"dishes":["soup"]}"#)
                #expect(try await gateway.get("/v2/menu", headers: Self.token(key, grant)).status == 200)
            }

            let partly = try await gateway.get("/kitchen/menu", headers: Self.token(key, #","scope":"menu:read""#))
            #expect(partly.status == 403)
            #expect(partly.headers["WWW-Authenticate"] == #"Bearer realm="bff", error="insufficient_scope", scope="kitchen:admin menu:read""#)
            #expect(try await gateway.get("/kitchen/menu", headers: Self.token(key, #","scope":"menu:read kitchen:admin""#)).status == 200)

            let metrics = try await gateway.get("/metrics").text
            #expect(metrics.contains(#"gateway_authentication_failures_total{reason="insufficient_scope"} 5"#))
            let openAPI = try await gateway.get("/openapi.json").text
            #expect(openAPI.contains("The token does not grant every scope this route requires: menu:read"))
        }
    }

    @Test func scopesAreChecked() {
        let bad = GatewayCatalog(
            upstreams: [Self.kitchen], endpoints: [],
            proxies: [ProxyRoute("/k", upstream: Self.kitchen, authentication: .required(scopes: ["menu read"]))])
        #expect(bad.problems == [#"proxy /k: scope "menu read" is not a scope token (printable ASCII without spaces, quotes or backslashes)"#])
        #expect(Authentication.required(scopes: []) == .required)
        for (file, fault) in [
            (#"{"endpoints":[{"path":"/a","authentication":"none","scopes":["x"],"response":{}}]}"#, #"scopes need "authentication": "required""#),
            (#"{"endpoints":[{"path":"/a","scopes":"x","response":{}}]}"#, "scopes must be an array of strings"),
            (#"{"proxies":[{"path":"/p","upstream":"kitchen","scopes":["a\"b"]}]}"#, #"scope "a\"b" is not a scope token"#),
        ] {
            do {
                _ = try EndpointsFile(parsing: Array(file.utf8), alongside: Self.catalog)
                Issue.record("accepted \(file)")
            } catch {
                #expect(error.description.contains(fault), "\(error.description)")
            }
        }
    }
}
