import Forecast
import Gateway
import GatewayTesting
import Testing

@Suite("GET /v1/forecast/:city against a stub weather upstream")
struct ForecastTests {
    /// A stub weather service for Oslo, its alerts answering `alertsStatus`.
    private func weather(alertsStatus: Int = 200) throws -> StubUpstream {
        let weather = try StubUpstream()
        weather.answer("/current/oslo", json: #"{"city":"oslo","temperature":3.5,"conditions":"snow","humidity":0.8}"#)
        weather.answer("/alerts/oslo", status: alertsStatus, json: #"{"alerts":[{"title":"Ice on roads","severity":"moderate"}]}"#)
        return weather
    }

    private func gateway(_ weather: StubUpstream) throws -> GatewayUnderTest {
        try GatewayUnderTest(catalog: .weather, environment: ["UPSTREAM_WEATHER_URL": weather.baseURL])
    }

    @Test("both calls merged")
    func merged() async throws {
        let weather = try weather()
        defer { weather.shutdown() }
        let gateway = try gateway(weather)
        let response = try await gateway.get("/v1/forecast/oslo")
        await gateway.stop()
        #expect(response.status == 200)
        #expect(response.text == #"{"city":"oslo","temperature":3.5,"conditions":"snow","alerts":["Ice on roads"],"degraded":[]}"#)
        #expect(response.headers["X-Gateway-Completed"] == "true")
    }

    @Test("failed alerts are null and listed in degraded")
    func degraded() async throws {
        let weather = try weather(alertsStatus: 503)
        defer { weather.shutdown() }
        let gateway = try gateway(weather)
        let response = try await gateway.get("/v1/forecast/oslo")
        await gateway.stop()
        #expect(response.status == 200)
        #expect(response.text == #"{"city":"oslo","temperature":3.5,"conditions":"snow","alerts":null,"degraded":["alerts"]}"#)
        #expect(response.headers["X-Gateway-Completed"] == "false")
    }

    @Test("an unknown city is the upstream's 404")
    func unknownCity() async throws {
        let weather = try weather()
        defer { weather.shutdown() }
        let gateway = try gateway(weather)
        let response = try await gateway.get("/v1/forecast/atlantis")
        await gateway.stop()
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }

    @Test("the catalog passes the start-up checks and is documented in OpenAPI")
    func documented() async throws {
        #expect(GatewayCatalog.weather.problems.isEmpty)
        let gateway = try GatewayUnderTest(catalog: .weather)
        let document = try await gateway.get("/openapi.json")
        await gateway.stop()
        #expect(document.text.contains(#""/v1/forecast/{city}""#))
        #expect(document.text.contains(#""temperature":{"type":"number"}"#))
    }
}
