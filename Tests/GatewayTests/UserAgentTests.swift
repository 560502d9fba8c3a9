import GatewayTesting
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// The `User-Agent` the scenario's upstreams receive from combined endpoints, over loopback.
@Suite("User-Agent of upstream calls")
struct UserAgentTests {
    @Test("every call carries the gateway's name and version, not the client's")
    func gatewayByDefault() async throws {
        try await withScenarioGateway { test, stubs in
            let response = try await test.get("/v1/people/1", headers: ["User-Agent": "curl/8.5.0"])
            #expect(response.status == 200)
            let received = stubs.received
            #expect(received.count >= 3)
            #expect(received.allSatisfy { $0.headers.values(named: "User-Agent") == ["swift-bff-gateway/\(GatewayVersion.current)"] })
        }
    }

    @Test("UPSTREAM_{NAME}_USER_AGENT replaces it for that upstream; set empty, none is sent")
    func perUpstream() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_MENU_USER_AGENT": "menu-reader/3", "UPSTREAM_SWAPI_USER_AGENT": ""]) { (test, stubs) throws in
            #expect(try await test.get("/v1/menu").status == 200)
            #expect(try await test.get("/v1/people/1").status == 200)
            let received = stubs.received
            let menu = received.filter { $0.path.hasPrefix("/menu/") }, swapi = received.filter { $0.path.hasPrefix("/swapi/") }
            #expect(!menu.isEmpty && !swapi.isEmpty)
            #expect(menu.allSatisfy { $0.headers.values(named: "User-Agent") == ["menu-reader/3"] })
            #expect(swapi.allSatisfy { !$0.headers.contains("User-Agent") })
        }
    }
}
