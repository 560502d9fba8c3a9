import GatewayTesting
import NetworkRuntime

@testable import Gateway

@testable import ReferenceScenario

extension StubUpstream {
    /// The three scenario upstreams on one stub: the demo's fixtures under `/deck`, `/swapi` and
    /// `/menu`, answered over HTTPS with `tls` when given; canned responses override them.
    static func scenario(tls: TLSContext? = nil) throws -> StubUpstream {
        let base = DemoBase()
        let stub = try StubUpstream(tls: tls, fallback: DemoUpstreams.router(swapiBase: base))
        base.set(stub.baseURL + "/swapi/api")
        return stub
    }

    /// The reference gateway in front of this stub, in process and on no socket: for the few tests
    /// of what a `GatewayUnderTest` cannot show, such as readiness before a server is attached or
    /// the answer to a request whose client left.
    func referenceGatewayWithoutServer() throws -> Gateway {
        let configuration = try GatewayConfiguration(environment: scenarioEnvironment, upstreams: GatewayCatalog.reference.upstreams)
        return try Gateway(configuration: configuration, catalog: .reference, transport: UpstreamTransports(for: configuration).make)
    }

    /// Points all three upstreams of a gateway at a `scenario` stub.
    var scenarioEnvironment: [String: String] {
        [
            "UPSTREAM_DECK_URL": baseURL + "/deck/api/deck",
            "UPSTREAM_SWAPI_URL": baseURL + "/swapi/api",
            "UPSTREAM_MENU_URL": baseURL + "/menu",
        ]
    }
}

/// Runs `body` with a gateway serving `catalog` in front of a `scenario` stub, configured from
/// its environment with `environment` on top, its log lines going to `log` when given.
///
/// - Parameter stubbed: more of the catalog's upstreams to point at the stub, each under a path
///   named after it (`/shop` for `shop`), for tests that answer them with canned responses.
func withScenarioGateway(
    environment: [String: String] = [:], catalog: GatewayCatalog = .reference, log: LogCapture? = nil, upstreamTLS: TLSContext? = nil,
    stubbed: Set<String> = [], _ body: (GatewayUnderTest, StubUpstream) async throws -> Void
) async throws {
    let stubs = try StubUpstream.scenario(tls: upstreamTLS)
    defer { stubs.shutdown() }
    var variables = stubs.scenarioEnvironment
    for upstream in catalog.upstreams where stubbed.contains(upstream.name) {
        variables[upstream.environmentPrefix + "URL"] = stubs.baseURL + "/" + upstream.name
    }
    variables.merge(environment) { _, test in test }
    try await withGateway(catalog: catalog, environment: variables, log: log) { try await body($0, stubs) }
}
