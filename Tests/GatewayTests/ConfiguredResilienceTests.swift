import GatewayTesting
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// The `UPSTREAM_{NAME}_RETRY_*` and `_BREAKER_*` variables at work: a gateway in front of a stub
/// swapi that always fails, counting what reaches the stub.
@Suite("End to end: retries and circuit breaker from the environment")
struct ConfiguredResilienceTests {
    /// Requests for people that reached the stub upstream.
    private func peopleCalls(_ stubs: StubUpstream) -> Int {
        stubs.received.count { $0.path.hasPrefix("/swapi/api/people/") }
    }

    @Test("a retryable failure is tried RETRY_ATTEMPTS times in all", arguments: [1, 3])
    func retryAttempts(attempts: Int) async throws {
        try await withScenarioGateway(environment: [
            "UPSTREAM_SWAPI_RETRY_ATTEMPTS": String(attempts), "UPSTREAM_SWAPI_RETRY_BACKOFF_MS": "0",
        ]) { test, stubs in
            stubs.answer(under: "/swapi/api/people/", status: .serviceUnavailable, body: "SIM-UPSTREAM-BODY")
            let response = try await test.get("/v1/people/1")
            #expect(response.status == 502)
            #expect(response.text.contains("upstream swapi answered 503"))
            #expect(peopleCalls(stubs) == attempts)
        }
    }

    @Test("the circuit opens after BREAKER_FAILURES failed calls, and later calls never reach the upstream")
    func breakerThreshold() async throws {
        // A cool-down far longer than the test, so the circuit cannot half-open in between; 500s
        // count because BREAKER_SERVER_ERRORS says so.
        try await withScenarioGateway(environment: [
            "UPSTREAM_SWAPI_RETRY_ATTEMPTS": "1", "UPSTREAM_SWAPI_BREAKER_FAILURES": "2",
            "UPSTREAM_SWAPI_BREAKER_COOLDOWN_MS": "600000", "UPSTREAM_SWAPI_BREAKER_SERVER_ERRORS": "on",
        ]) { test, stubs in
            stubs.answer(under: "/swapi/api/people/", status: .internalServerError, body: "SIM-UPSTREAM-BODY")
            var statuses: [Int] = []
            for _ in 0..<4 {
                statuses.append(try await test.get("/v1/people/1").status)
            }
            #expect(statuses == [502, 502, 503, 503])
            #expect(peopleCalls(stubs) == 2)
            let swapi = try #require(test.served.upstreams["swapi"])
            #expect(swapi.isCircuitOpen)
        }
    }

    @Test("BREAKER_FAILURES=0: every call reaches a failing upstream and the circuit never opens")
    func breakerDisabled() async throws {
        try await withScenarioGateway(environment: [
            "UPSTREAM_SWAPI_RETRY_ATTEMPTS": "1", "UPSTREAM_SWAPI_BREAKER_FAILURES": "0", "UPSTREAM_SWAPI_BREAKER_SERVER_ERRORS": "on",
        ]) { test, stubs in
            stubs.answer(under: "/swapi/api/people/", status: .internalServerError, body: "SIM-UPSTREAM-BODY")
            for _ in 0..<8 {
                #expect(try await test.get("/v1/people/1").status == 502)
            }
            #expect(peopleCalls(stubs) == 8)
            let swapi = try #require(test.served.upstreams["swapi"])
            #expect(!swapi.isCircuitOpen)
        }
    }

    @Test("BREAKER_SERVER_ERRORS is on or off, else start-up stops with one line")
    func breakerServerErrorsValidated() throws {
        let upstreams = GatewayCatalog.reference.upstreams
        let error = #expect(throws: ConfigurationError.self) {
            try GatewayConfiguration(environment: ["UPSTREAM_SWAPI_BREAKER_SERVER_ERRORS": "yes"], upstreams: upstreams)
        }
        #expect(error?.description == #"configuration error: UPSTREAM_SWAPI_BREAKER_SERVER_ERRORS must be on or off, got "yes""#)
        let on = try GatewayConfiguration(environment: ["UPSTREAM_SWAPI_BREAKER_SERVER_ERRORS": "on"], upstreams: upstreams)
        #expect(on.upstreams.map(\.circuitBreaker.countsServerErrors) == [false, true, false])
    }
}
