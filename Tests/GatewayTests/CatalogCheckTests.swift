import GatewayTesting
import Testing

@testable import Gateway
@testable import ReferenceScenario

@Suite("Start-up checks of the catalog and the upstream variables")
struct CatalogCheckTests {
    private static let other = UpstreamDefinition(name: "other", defaultBaseURL: "http://127.0.0.1:9")

    @Test("the reference catalog has no problems")
    func reference() {
        #expect(GatewayCatalog.reference.problems.isEmpty)
    }

    @Test("an endpoint using an upstream the catalog lacks, or mismatched path parameters, is refused")
    func problems() {
        let endpoint = Endpoint("/v1/things/:id", summary: "x", parameters: [.query("id", "not a path parameter")], upstreams: [Self.other], example: 1) { _ in 1 }
        let catalog = GatewayCatalog(upstreams: [.menu, .menu], endpoints: [endpoint, .menu])
        #expect(catalog.problems == [
            "upstream menu is defined twice (or shares its variables with another)",
            "endpoint GET /v1/things/:id uses upstream other, which the catalog does not define",
            "endpoint GET /v1/things/:id does not declare its path parameter id",
        ])
        #expect(throws: GatewayStartupError.self) { try GatewayUnderTest(catalog: catalog) }
    }

    @Test("routes the router cannot hold, or that the operations routes would hide, are refused")
    func routes() {
        func endpoint(_ path: String, _ parameters: [EndpointParameter] = []) -> Endpoint {
            Endpoint(path, summary: "x", parameters: parameters, upstreams: [], example: ["a": 1]) { _ in ["a": 1] }
        }
        let catalog = GatewayCatalog(upstreams: [], endpoints: [
            endpoint("v1/relative"),
            endpoint("/healthz"),
            endpoint("/v1/things/:id", [.path("id", "x")]),
            endpoint("/v1/things/:key/parts", [.path("key", "x")]),
            endpoint("/v1/things/:id/parts/:part", [.path("id", "x"), .path("part", "x")]),
        ])
        #expect(catalog.problems == [
            "endpoint GET v1/relative: its path must start with /",
            "endpoint GET /healthz: route clashes with GET /healthz",
            "endpoint GET /v1/things/:key/parts: route clashes with GET /v1/things/{id}: its parameter key is at the place of id; use the same name",
            "endpoint GET /v1/things/:id/parts/:part: route clashes with GET /v1/things/{key}/parts: its parameter id is at the place of key; use the same name",
        ])
        #expect(throws: GatewayStartupError.self) { try GatewayUnderTest(catalog: catalog) }
    }

    @Test("a body with its own degraded is refused when the gateway adds one")
    func ownDegraded() {
        let endpoint = Endpoint("/v1/d", summary: "x", upstreams: [], optionalParts: ["p"], example: ["degraded": 1]) { _ in ["degraded": 1] }
        #expect(GatewayCatalog(upstreams: [], endpoints: [endpoint]).problems == [
            "endpoint GET /v1/d: its body has a member degraded, which the gateway adds; rename it"
        ])
    }

    @Test("optional parts need an object body, to which degraded is added")
    func degradedNeedsObject() {
        let endpoint = Endpoint("/v1/list", summary: "x", upstreams: [], optionalParts: ["more"], example: [1, 2]) { _ in [1] }
        #expect(GatewayCatalog(upstreams: [], endpoints: [endpoint]).problems == [
            "endpoint GET /v1/list: its body must be a JSON object, to which degraded is added"
        ])
    }

    @Test("an undeclared optional part or upstream is a 500 naming it")
    func undeclared() async throws {
        let part = Endpoint("/v1/part", summary: "x", upstreams: [], example: ["a": 1]) { call in
            _ = try await call.optional("surprise") { 1 }
            return ["a": 1]
        }
        let upstream = Endpoint("/v1/upstream", summary: "x", upstreams: [], example: ["a": 1]) { call in
            _ = try call.upstream(Self.other)
            return ["a": 1]
        }
        let gateway = try GatewayUnderTest(catalog: GatewayCatalog(upstreams: [Self.other], endpoints: [part, upstream]))
        let partResponse = try await gateway.get("/v1/part")
        let upstreamResponse = try await gateway.get("/v1/upstream")
        await gateway.stop()
        #expect(partResponse.status == 500 && partResponse.text.contains("optional part surprise is not declared"))
        #expect(upstreamResponse.status == 500 && upstreamResponse.text.contains("upstream other is not declared by this endpoint"))
    }

    @Test("an unknown UPSTREAM_ variable meant for the gateway stops start-up, naming the likely intended one")
    func unknownVariable() async {
        #expect(throws: ConfigurationError(
            variable: "UPSTREAM_MENUU_URL",
            problem: "is not a variable of any upstream (upstreams: deck, swapi, menu); did you mean UPSTREAM_MENU_URL?")
        ) {
            try GatewayConfiguration(environment: ["UPSTREAM_MENUU_URL": "http://x"], upstreams: GatewayCatalog.reference.upstreams)
        }
        #expect(throws: ConfigurationError(variable: "UPSTREAM_BILLING_URL", problem: "is not a variable of any upstream (upstreams: menu)")) {
            try GatewayConfiguration(environment: ["UPSTREAM_BILLING_URL": "http://x"], upstreams: [.menu])
        }
        #expect(await GatewayCommand.run(arguments: [], environment: ["UPSTREAM_SWAPI_TIMEOUT": "5"], catalog: .reference) == 2)
        // Neither an upstream's prefix nor a per-upstream suffix: another tool's variable.
        #expect(throws: Never.self) {
            try GatewayConfiguration(environment: ["UPSTREAM_SIM_BIN": "/tmp/sim", "UPSTREAM_MENU_URL": "http://x"], upstreams: [.menu])
        }
    }

    @Test("proxy routes: a plain prefix of their own, clear of the operations routes, to an upstream of the catalog")
    func proxies() {
        let endpoint = Endpoint("/ct/special", summary: "x", upstreams: [], example: ["a": 1]) { _ in ["a": 1] }
        let valid = ["/ct", "/ct/v2", "/v1/a-b_c.d~e/x:y@z/%C3%A9", "/metrics2", "/healthz/x"].map { ProxyRoute($0, upstream: .menu) }
        #expect(GatewayCatalog(upstreams: [.menu], endpoints: [endpoint], proxies: valid).problems.isEmpty)
        let invalid = [
            "ct", "/", "/ct/", "/ct/:id", "/ct/{id}", "/a//b", "/a/./b", "/a/..", "/a/%2e%2E", "/a b", "/a?b", "/a%zz", "/caf\u{E9}",
            "/healthz", "/openapi.json",
        ].map { ProxyRoute($0, upstream: .menu) }
        let catalog = GatewayCatalog(
            upstreams: [.menu], endpoints: [],
            proxies: invalid + [ProxyRoute("/ok", upstream: .menu), ProxyRoute("/ok", upstream: Self.other)])
        let plainPath = "its path must be segments of letters, digits, %XX escapes and -._~!$&'()*+,;=:@, none empty, . or .."
        #expect(catalog.problems == [
            "proxy ct: its path must start with /",
            "proxy /: the root / would take every path, the operations routes' too",
            "proxy /ct/: its path must not end with /; /ct serves /ct/ and below too",
            "proxy /ct/:id: its path has no parameters; every path below it is passed on",
            "proxy /ct/{id}: its path has no parameters; every path below it is passed on",
        ] + ["/a//b", "/a/./b", "/a/..", "/a/%2e%2E", "/a b", "/a?b", "/a%zz", "/caf\u{E9}"].map { "proxy \($0): \(plainPath)" } + [
            "proxy /healthz: it would take requests for the operations route /healthz",
            "proxy /openapi.json: it would take requests for the operations route /openapi.json",
            "proxy /ok is defined twice",
            "proxy /ok uses upstream other, which the catalog does not define",
        ])
        #expect(throws: GatewayStartupError.self) { try GatewayUnderTest(catalog: catalog) }
    }

    @Test("OpenAPI types numbers by their Swift type, not the example's digits")
    func typedSchema() throws {
        struct Reading: Encodable { let celsius: Double; let count: Int }
        let value = try TypedValueEncoder.encode(Reading(celsius: 6.0, count: 2))
        #expect(JSONSchema.inferred(from: value)["properties"] == .object([("celsius", .object([("type", "number")])), ("count", .object([("type", "integer")]))]))
    }

    @Test("OpenAPI says null where the type has @Nullable, whatever the example holds, in arrays too")
    func nullableFromTheType() throws {
        struct Shelf: Encodable { @Nullable var label: String?; let books: [Book] }
        struct Book: Encodable { let title: String; @Nullable var stars: Double? }
        let shelf = Shelf(label: "new", books: [Book(title: "Dune", stars: 4.5)])
        let (value, nullable) = try TypedValueEncoder.encodeFindingNullable(shelf)
        #expect(nullable == ["label", "books.stars"])
        let schema = JSONSchema.inferred(from: value, nullableFields: nullable)
        #expect(schema["properties"]?["label"]?["type"] == .array(["string", "null"]))
        #expect(schema["properties"]?["books"]?["items"]?["properties"]?["stars"]?["type"] == .array(["number", "null"]))
        #expect(schema["properties"]?["books"]?["items"]?["properties"]?["title"]?["type"] == "string")
    }
}
