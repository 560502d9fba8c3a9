import CallerIdentity
import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import Synchronization
import Testing

@testable import Gateway

/// The gateway checking bearer tokens, through real sockets: a key set from a file, and one
/// served by a stub of the identity provider that rotates its keys.
@Suite struct AuthenticationEndToEndTests {
    struct Greeting: Codable, Sendable {
        var subject: String?
        var name: String
    }

    static let people = UpstreamDefinition(name: "people", defaultBaseURL: "http://127.0.0.1:1")

    /// `/v1/me` requires a token and passes the caller's subject upstream; `/v1/open` and the
    /// proxy `/open-people` require none.
    static let catalog = GatewayCatalog(
        upstreams: [people],
        endpoints: [
            Endpoint("/v1/me", summary: "The caller", upstreams: [people], example: Greeting(subject: "u", name: "n")) { call in
                let subject = call.identity?.subject
                let person = try await call.upstream(people).get("people", headers: ["X-Caller": subject ?? "nobody"], as: Greeting.self)
                return Greeting(subject: subject, name: person.name)
            },
            Endpoint("/v1/open", summary: "Anyone", authentication: .none, upstreams: [], example: Greeting(subject: nil, name: "n")) { call in
                Greeting(subject: call.identity?.subject, name: "open")
            },
        ],
        proxies: [ProxyRoute("/open-people", upstream: people, authentication: .none)])

    static func environment(_ stub: StubUpstream, _ extra: [String: String]) -> [String: String] {
        ["UPSTREAM_PEOPLE_URL": stub.baseURL, "AUTH_ISSUER": "https://id.example", "AUTH_AUDIENCE": "bff"].merging(extra) { _, new in new }
    }

    static func claims(sub: String = "user-7", exp: Double = Date().timeIntervalSince1970 + 600) -> String {
        #"{"sub":"\#(sub)","iss":"https://id.example","aud":["bff","other"],"exp":\#(exp)}"#
    }

    static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer " + token] }

    static func keySetFile(_ keys: [TestSigningKey]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json").path
        try Data(keySet(keys).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func keySetFromAFile() async throws {
        let key = TestSigningKey(.rs256, keyID: "k1")
        let path = try Self.keySetFile([key])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/people", json: #"{"name":"Leia"}"#)
        let gateway = try GatewayUnderTest(catalog: Self.catalog, environment: Self.environment(stub, ["AUTH_JWKS_FILE": path]))

        let missing = try await gateway.get("/v1/me")
        #expect(missing.status == 401)
        #expect(missing.headers["WWW-Authenticate"] == #"Bearer realm="bff""#)
        #expect(missing.headers["Content-Type"] == "application/problem+json")

        let expired = key.token(Self.claims(exp: Date().timeIntervalSince1970 - 3600))
        let refused = try await gateway.get("/v1/me", headers: Self.bearer(expired))
        #expect(refused.status == 401)
        #expect(refused.headers["WWW-Authenticate"] == #"Bearer realm="bff", error="invalid_token", error_description="the token has expired""#)
        #expect(!refused.text.contains(expired))
        let forged = TestSigningKey(.rs256, keyID: "k1").token(Self.claims())
        #expect(try await gateway.get("/v1/me", headers: Self.bearer(forged)).status == 401)
        #expect(try await gateway.get("/v1/me", headers: ["Authorization": "Basic dXNlcjpwdw=="]).status == 401)
        #expect(stub.received.isEmpty, "no refused request reached the upstream")

        let token = key.token(Self.claims())
        for _ in 0..<2 {
            let answer = try await gateway.get("/v1/me", headers: Self.bearer(token))
            #expect(answer.status == 200)
            #expect(try answer.json(as: Greeting.self).subject == "user-7")
        }
        #expect(stub.received.map { $0.headers["X-Caller"] } == ["user-7", "user-7"])

        let open = try await gateway.get("/v1/open")
        #expect(open.status == 200)
        #expect(try open.json(as: Greeting.self).subject == nil)
        #expect(try await gateway.get("/healthz").status == 200)
        #expect(try await gateway.get("/open-people/people").status == 200)
        let metrics = try await gateway.get("/metrics").text
        #expect(metrics.contains(#"gateway_authentication_failures_total{reason="missing"} 2"#))
        #expect(metrics.contains(#"gateway_authentication_failures_total{reason="expired"} 1"#))
        #expect(metrics.contains(#"gateway_authentication_failures_total{reason="bad_signature"} 1"#))
        let openAPI = try await gateway.get("/openapi.json").text
        #expect(openAPI.contains("The bearer token is missing or invalid"))
        await gateway.stop()
    }

    @Test func keyRotationThroughAKeySetURL() async throws {
        let (first, second, unknown) = (TestSigningKey(.es256, keyID: "first"), TestSigningKey(.edDSA, keyID: "second"), TestSigningKey(.edDSA, keyID: "third"))
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/people", json: #"{"name":"Han"}"#)
        stub.answer("/jwks", json: keySet([first]), headers: ["Cache-Control": "max-age=3600"])
        let gateway = try GatewayUnderTest(
            catalog: Self.catalog, environment: Self.environment(stub, ["AUTH_JWKS_URL": stub.baseURL + "/jwks", "AUTH_JWKS_MIN_REFRESH_MS": "600000"]))
        func fetches() -> Int { stub.received.count { $0.path == "/jwks" } }

        #expect(try await gateway.get("/v1/me", headers: Self.bearer(first.token(Self.claims()))).status == 200)
        #expect(fetches() == 1)
        // The provider adds a key and signs with it: its first token fetches the set again, once.
        stub.answer("/jwks", json: keySet([first, second]), headers: ["Cache-Control": "max-age=3600"])
        #expect(try await gateway.get("/v1/me", headers: Self.bearer(second.token(Self.claims(sub: "user-8")))).status == 200)
        #expect(fetches() == 2)
        #expect(try await gateway.get("/v1/me", headers: Self.bearer(second.token(Self.claims(sub: "user-9")))).status == 200)
        // A kid the provider never had fetches nothing more within the interval.
        for _ in 0..<3 {
            let refused = try await gateway.get("/v1/me", headers: Self.bearer(unknown.token(Self.claims())))
            #expect(refused.status == 401)
            #expect(refused.headers["WWW-Authenticate"]?.contains("the token's key is not in the key set") == true)
        }
        #expect(fetches() == 2)
        #expect(try await gateway.get("/v1/me", headers: Self.bearer(first.token(Self.claims()))).status == 200)
        await gateway.stop()
    }

    /// An endpoints file whose call passes the caller's subject upstream, beside one open to all.
    static let ordersFile = #"""
        {
          "upstreams": { "orders": { "url": "http://127.0.0.1:1/unused" } },
          "endpoints": [
            {
              "path": "/v2/orders",
              "calls": { "list": { "upstream": "orders", "path": "/orders", "query": { "user": "{auth.sub}" } } },
              "response": { "user": "{auth.sub}", "tenant": "{auth.tenant}", "line": "orders of {auth.sub}", "orders": "{list.items}" }
            },
            {
              "path": "/v2/status", "authentication": "none",
              "response": { "user": "{auth.sub}", "up": true }
            }
          ],
          "proxies": [
            { "path": "/raw", "upstream": "orders" },
            { "path": "/open", "upstream": "orders", "authentication": "none" }
          ]
        }
        """#

    @Test func claimsInFileTemplatesAndProxies() async throws {
        let key = TestSigningKey(.es256, keyID: "k1")
        let path = try Self.keySetFile([key])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/orders", json: #"{"items":[1,2]}"#)
        stub.answer("/anything", json: #"{"ok":true}"#)
        let catalog = Self.catalog.adding(try EndpointsFile(parsing: Array(Self.ordersFile.utf8), alongside: Self.catalog))
        let gateway = try GatewayUnderTest(
            catalog: catalog, environment: Self.environment(stub, ["AUTH_JWKS_FILE": path, "UPSTREAM_ORDERS_URL": stub.baseURL]))
        let token = key.token(#"{"sub":"u 42","tenant":7,"iss":"https://id.example","aud":"bff","exp":\#(Date().timeIntervalSince1970 + 60)}"#)

        #expect(try await gateway.get("/v2/orders").status == 401)
        let answer = try await gateway.get("/v2/orders", headers: Self.bearer(token))
        #expect(answer.status == 200)
        #expect(answer.text == #"{"user":"u 42","tenant":7,"line":"orders of u 42","orders":[1,2],"degraded":[]}"#)
        #expect(stub.received.last?.query == "user=u%2042")
        let status = try await gateway.get("/v2/status")
        #expect(status.text == #"{"user":null,"up":true,"degraded":[]}"#)

        #expect(try await gateway.get("/raw/anything").status == 401)
        #expect(try await gateway.get("/raw/anything", headers: Self.bearer(token)).status == 200)
        #expect(try await gateway.get("/open/anything").status == 200)
        await gateway.stop()
    }

    @Test func fileFieldsAreChecked() {
        for (file, fault) in [
            (#"{"endpoints":[{"path":"/a","authentication":"maybe","response":{}}]}"#, #"authentication must be "required" or "none""#),
            (#"{"proxies":[{"path":"/p","upstream":"people","authentication":"no"}]}"#, #"authentication must be "required" or "none""#),
            (#"{"endpoints":[{"path":"/a","response":"{auth}"}]}"#, "name one claim of the caller's token"),
            (#"{"endpoints":[{"path":"/a","parameters":{"auth":{"in":"query","type":"string"}},"response":{}}]}"#, "auth names the caller's claims"),
        ] {
            #expect(throws: EndpointsFileError.self) { try EndpointsFile(parsing: Array(file.utf8), alongside: Self.catalog) }
            do {
                _ = try EndpointsFile(parsing: Array(file.utf8), alongside: Self.catalog)
            } catch {
                #expect(error.description.contains(fault), "\(error.description)")
            }
        }
    }

    @Test func unreachableKeySetAnswers503() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/jwks", status: 500, json: "{}")
        let key = TestSigningKey(.edDSA, keyID: "k")
        let gateway = try GatewayUnderTest(catalog: Self.catalog, environment: Self.environment(stub, ["AUTH_JWKS_URL": stub.baseURL + "/jwks"]))
        let answer = try await gateway.get("/v1/me", headers: Self.bearer(key.token(Self.claims())))
        #expect(answer.status == 503)
        #expect(try await gateway.get("/v1/open").status == 200)
        await gateway.stop()
    }

    @Test func badConfigurationIsOneLine() throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        let notJSON = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json").path
        try Data("{".utf8).write(to: URL(fileURLWithPath: notJSON))
        defer { try? FileManager.default.removeItem(atPath: notJSON) }
        let cases: [([String: String], String)] = [
            (["AUTH_JWKS_FILE": "/nonexistent/jwks.json"], "configuration error: AUTH_JWKS_FILE names a file that cannot be read: /nonexistent/jwks.json"),
            (["AUTH_JWKS_FILE": notJSON], "configuration error: AUTH_JWKS_FILE is not a usable JWK Set: the key set is not valid JSON"),
            (["AUTH_JWKS_URL": "ftp://id.example/jwks"], "configuration error: AUTH_JWKS_URL must be an absolute http:// or https:// URL"),
            (["AUTH_JWKS_URL": "http://id.example/jwks", "AUTH_ISSUER": ""], "configuration error: AUTH_ISSUER must be set along with"),
            (["AUTH_JWKS_URL": "http://id.example/jwks", "AUTH_JWKS_FILE": "/x"], "configuration error: AUTH_JWKS_URL cannot be set along with AUTH_JWKS_FILE"),
            (["AUTH_JWKS_URL": "http://id.example/jwks", "AUTH_LEEWAY_MS": "-1"], "configuration error: AUTH_LEEWAY_MS must be a whole number"),
        ]
        for (extra, line) in cases {
            do {
                _ = try GatewayUnderTest(catalog: Self.catalog, environment: Self.environment(stub, extra))
                Issue.record("started with \(extra)")
            } catch let error as GatewayStartupError {
                #expect(error.description.hasPrefix(line), "\(error.description)")
                #expect(error.exitStatus == 2)
                #expect(!error.description.contains("\n"))
            }
        }
    }
}
