import Foundation
import GatewayTesting
import ReferenceScenario
import Synchronization
import Testing

@testable import Gateway

/// What an operator meets first: the reference endpoints turned off, `--check` and `--help`
/// with an endpoints file.
@Suite("Operator's command")
struct OperatorCommandTests {
    /// A file endpoint over the reference upstream swapi, and one over a file upstream of its own.
    static let file = #"""
        {
          "upstreams": { "shop": { "url": "http://127.0.0.1:1/shop", "timeout_ms": 2000 } },
          "endpoints": [
            { "path": "/v2/hero/{id}", "parameters": { "id": { "in": "path", "type": "integer" } },
              "calls": { "person": { "upstream": "swapi", "path": "/people/{id}/" } },
              "response": { "name": "{person.name}" } },
            { "path": "/v2/books/{isbn}", "parameters": { "isbn": { "in": "path", "type": "string" } },
              "calls": { "book": { "upstream": "shop", "path": "/books/{isbn}" } },
              "response": { "title": "{book.title}" } }
          ]
        }
        """#

    /// Writes `text` to a file of its own and returns its path.
    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("endpoints-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The command's exit status and its lines (standard error's prefixed with `!`).
    static func command(_ arguments: [String], _ environment: [String: String]) async -> (status: Int32, lines: [String]) {
        let lines = Mutex<[String]>([])
        let status = await GatewayCommand.run(
            arguments: arguments, environment: environment, catalog: .reference, catalogSwitch: .referenceEndpoints, demo: nil,
            whenListening: {}, write: { line, isError in lines.withLock { $0.append((isError ? "!" : "") + line) } })
        return (status, lines.withLock { $0 }.flatMap { $0.split(separator: "\n").map(String.init) })
    }

    @Test("GATEWAY_REFERENCE_ENDPOINTS=off: the file's endpoints alone, a reference upstream only when the file uses it")
    func referenceEndpointsOff() async throws {
        let path = try Self.write(Self.file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stubs = try StubUpstream.scenario()
        defer { stubs.shutdown() }
        stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune"}"#)
        var environment = stubs.scenarioEnvironment
        environment["GATEWAY_ENDPOINTS_FILE"] = path
        environment["GATEWAY_REFERENCE_ENDPOINTS"] = "off"
        environment["UPSTREAM_SHOP_URL"] = stubs.baseURL + "/shop"
        let catalog = try GatewayCommand.catalog(.reference, switch: .referenceEndpoints, environment: environment).catalog
        #expect(catalog.upstreams.map(\.name) == ["swapi", "shop"])
        // The catalog holds the file's routes already; a gateway given the file too would add them again.
        environment["GATEWAY_ENDPOINTS_FILE"] = nil
        try await withGateway(catalog: catalog, environment: environment) { gateway in
            #expect(try await gateway.get("/v1/menu").status == 404)
            #expect(try await gateway.get("/v1/deal").status == 404)
            let hero = try await gateway.get("/v2/hero/1")
            #expect(hero.status == 200)
            #expect(hero.text == #"{"name":"Luke Skywalker","degraded":[]}"#)
            #expect(try await gateway.get("/v2/books/1").text == #"{"title":"Dune","degraded":[]}"#)
            // Readiness weighs the circuits of the upstreams set up: swapi and shop, as metrics show.
            #expect(try await gateway.get("/readyz").status == 200)
            let metrics = try await gateway.get("/metrics").text
            #expect(!metrics.contains(#"upstream="menu""#) && !metrics.contains(#"upstream="deck""#) && metrics.contains(#"upstream="swapi""#))
            let index = try await gateway.get("/").text
            let openAPI = try await gateway.get("/openapi.json").text
            for document in [index, openAPI] {
                #expect(!document.contains("/v1/menu") && !document.contains("/v1/people") && document.contains("/v2/hero/{id}"))
            }
        }
    }

    @Test("GATEWAY_REFERENCE_ENDPOINTS is on by default and refuses other values")
    func referenceEndpointsSwitch() async throws {
        let on = try GatewayCommand.catalog(.reference, switch: .referenceEndpoints, environment: [:]).catalog
        #expect(on.endpoints.map(\.path) == GatewayCatalog.reference.endpoints.map(\.path))
        let off = try GatewayCommand.catalog(.reference, switch: .referenceEndpoints, environment: ["GATEWAY_REFERENCE_ENDPOINTS": "off"]).catalog
        #expect(off.endpoints.isEmpty && off.upstreams.isEmpty && off.upstreamsOnOffer.map(\.name) == ["deck", "swapi", "menu"])
        let wrong = await Self.command([], ["GATEWAY_REFERENCE_ENDPOINTS": "no"])
        #expect(wrong.status == 2)
        #expect(wrong.lines == [#"!configuration error: GATEWAY_REFERENCE_ENDPOINTS must be on or off, got "no""#])
        // Off, a reference upstream's variable is accepted though nothing uses it; a misspelt one is not.
        let ignored = await Self.command(["--check"], ["GATEWAY_REFERENCE_ENDPOINTS": "off", "UPSTREAM_MENU_URL": "http://127.0.0.1:1"])
        #expect(ignored.status == 0)
        #expect(ignored.lines.last == "ignored (their upstreams serve no route): UPSTREAM_MENU_URL")
        #expect(await Self.command(["--check"], ["GATEWAY_REFERENCE_ENDPOINTS": "off", "UPSTREAM_MENUU_URL": "x"]).status == 2)
    }

    @Test("--check prints the routes, the upstreams with the source of their settings, secrets as (set)")
    func checkGoodFile() async throws {
        let path = try Self.write(Self.file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, lines) = await Self.command(
            ["--check"],
            ["GATEWAY_ENDPOINTS_FILE": path, "GATEWAY_REFERENCE_ENDPOINTS": "off", "UPSTREAM_SHOP_BEARER_TOKEN": "s3cret",
             "UPSTREAM_SWAPI_URL": "http://127.0.0.1:9/swapi", "UPSTREAM_SHOP_RETRY_ATTEMPTS": "2", "LOG_LEVEL": "debug"])
        #expect(status == 0)
        #expect(lines == [
            "configuration OK: 2 endpoints, 0 proxy routes, 2 upstreams",
            "settings:",
            "  LOG_LEVEL=debug",
            "  GATEWAY_ENDPOINTS_FILE=\(path)",
            "  GATEWAY_REFERENCE_ENDPOINTS=off",
            "endpoints:",
            "  GET /v2/hero/{id} -> swapi; auth: none (no key set); rate limit: off (default)",
            "  GET /v2/books/{isbn} -> shop; auth: none (no key set); rate limit: off (default)",
            "upstreams:",
            "  swapi: http://127.0.0.1:9/swapi (UPSTREAM_SWAPI_URL), timeout 5000 ms (default)",
            "  shop: http://127.0.0.1:1/shop (endpoints file), timeout 2000 ms (endpoints file)",
            "    UPSTREAM_SHOP_BEARER_TOKEN=(set)",
            "    UPSTREAM_SHOP_RETRY_ATTEMPTS=2",
        ])
        #expect(!lines.joined().contains("s3cret"))
    }

    @Test("--check shows each route's authentication, scopes and rate limit, (default) only for defaults")
    func checkRouteAdmission() async throws {
        let file = try Self.write(#"""
            {
              "upstreams": { "shop": { "url": "http://127.0.0.1:1/shop" }, "slow": { "url": "http://127.0.0.1:1/slow", "timeout_ms": 9000 } },
              "endpoints": [
                { "path": "/v2/books/{isbn}", "parameters": { "isbn": { "in": "path", "type": "string" } }, "scopes": ["books:read", "books:list"],
                  "rate_limit": "5/min", "calls": { "book": { "upstream": "shop", "path": "/books/{isbn}" } }, "response": { "title": "{book.title}" } },
                { "path": "/v2/slow", "calls": { "it": { "upstream": "slow", "path": "/" } }, "response": { "it": "{it.x}" } }
              ],
              "proxies": [
                { "path": "/open", "upstream": "shop", "authentication": "none", "rate_limit": "off" },
                { "path": "/closed", "upstream": "shop" }
              ]
            }
            """#)
        let keySet = try Self.write(#"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"k","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#)
        defer { [file, keySet].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let environment = [
            "GATEWAY_ENDPOINTS_FILE": file, "GATEWAY_REFERENCE_ENDPOINTS": "off", "AUTH_JWKS_FILE": keySet, "AUTH_ISSUER": "https://id.example", "AUTH_AUDIENCE": "bff", "RATE_LIMIT": "20/s",
            "UPSTREAM_SHOP_HEADERS": "",
        ]
        let (status, lines) = await Self.command(["--check"], environment)
        #expect(status == 0)
        let routes = lines.filter { $0.hasPrefix("  GET ") || $0.hasPrefix("  ANY ") }
        #expect(routes == [
            "  GET /v2/books/{isbn} -> shop; auth: token with scopes books:read books:list; rate limit: 5/min (route)",
            "  GET /v2/slow -> slow; auth: token (default); rate limit: 20/s (RATE_LIMIT)",
            "  ANY /open/* -> shop; auth: none; rate limit: off (route)",
            "  ANY /closed/* -> shop; auth: token (default); rate limit: 20/s (RATE_LIMIT)",
        ])
        // A file upstream without timeout_ms has the default, not the file's choice.
        #expect(lines.contains("  shop: http://127.0.0.1:1/shop (endpoints file), timeout 5000 ms (default)"))
        #expect(lines.contains("  slow: http://127.0.0.1:1/slow (endpoints file), timeout 9000 ms (endpoints file)"))
        // A secret set to nothing says so instead of (set).
        #expect(lines.contains("    UPSTREAM_SHOP_HEADERS=(empty)"))
    }

    @Test("a credential set but empty stops start-up with one line, as --check says")
    func emptyCredential() async throws {
        for variable in ["UPSTREAM_SWAPI_BEARER_TOKEN", "UPSTREAM_SWAPI_OAUTH2_CLIENT_SECRET", "UPSTREAM_SWAPI_OAUTH2_CLIENT_ID"] {
            let checked = await Self.command(["--check"], [variable: ""])
            #expect(checked.status == 2)
            #expect(checked.lines == ["!configuration error: \(variable) is set but empty; unset it to send no credential"])
        }
    }

    @Test("--check on a broken file or environment exits 2 with the line start-up prints")
    func checkBroken() async throws {
        let path = try Self.write(Self.file.replacingOccurrences(of: #""upstream": "shop""#, with: #""upstream": "shopp""#))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = ["GATEWAY_ENDPOINTS_FILE": path]
        let checked = await Self.command(["--check"], environment)
        #expect(checked.status == 2)
        #expect(checked.lines == ["!configuration error: GATEWAY_ENDPOINTS_FILE: \(path): endpoint GET /v2/books/{isbn}: call book: unknown upstream shopp; did you mean shop?"])
        #expect(await Self.command([], environment) == checked)
        let badVariable = ["UPSTREAM_SWAPI_TIMEOUT_MS": "soon", "HOST": "127.0.0.1", "PORT": "0"]
        let checkedVariable = await Self.command(["--check"], badVariable)
        #expect(checkedVariable.status == 2 && checkedVariable.lines.count == 1)
        #expect(await Self.command([], badVariable) == checkedVariable)
        #expect(await Self.command(["--check", "--demo"], [:]).status == 2)
    }

    @Test("--help lists the file's upstreams and their variables, and says when the file is broken")
    func helpWithFile() async throws {
        let path = try Self.write(Self.file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let help = await Self.command(["--help"], ["GATEWAY_ENDPOINTS_FILE": path])
        #expect(help.status == 0)
        #expect(help.lines.contains { $0.hasPrefix("  UPSTREAM_SHOP_URL ") && $0.hasSuffix("[http://127.0.0.1:1/shop]") })
        #expect(help.lines.contains { $0.hasPrefix("  GATEWAY_REFERENCE_ENDPOINTS ") && $0.hasSuffix("[on]") })
        #expect(help.lines.contains { $0.hasPrefix("  --check ") })
        let broken = await Self.command(["--help"], ["GATEWAY_ENDPOINTS_FILE": path + ".missing"])
        #expect(broken.status == 0)
        #expect(broken.lines.last == "!configuration error: GATEWAY_ENDPOINTS_FILE: \(path).missing: cannot be opened")
    }
}
