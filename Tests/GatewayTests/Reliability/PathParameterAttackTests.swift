import GatewayTesting
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// Hostile path and query parameters, sent over a real socket: each is a 400 or 404 problem and
/// nothing reaches an upstream.
@Suite("Reliability: hostile parameters")
struct PathParameterAttackTests {
    static let targets = [
        "/v1/people/%00", "/v1/people/1%00", "/v1/people/..", "/v1/people/%2e%2e", "/v1/people/%2E%2E%2Fplanets%2F1",
        "/v1/people/1%2F..%2F..%2Fplanets", "/v1/people/1%2f2", "/v1/people/1%5C2", "/v1/people/%ff", "/v1/people/%C0%AE%C0%AE",
        "/v1/people/%zz", "/v1/people/%", "/v1/people/1%", "/v1/people/1;x=y", "/v1/people/1%3F", "/v1/people/1%23",
        "/v1/people/99999999999999999999", "/v1/people/+1", "/v1/people/%20", "/v1/people/1%0D%0AX-Injected:%201",
        "/v1/people//1", "/v1/people/1/..", "/v1/../v1/people/1", "/v1/people/%EF%BC%91",
        "/v1/deal?players=%00", "/v1/deal?players=1%00", "/v1/deal?players=%zz", "/v1/deal?players=3%0A",
        "/v1/deal?cards=1e1", "/v1/deal?cards=0x5", "/v1/deal?players=%2B1",
    ]

    @Test("each hostile parameter is a 400 or 404 problem and nothing reaches an upstream")
    func hostileParameters() async throws {
        try await withScenarioGateway { test, stubs in
            for target in Self.targets {
                let response = try await test.get(target)
                #expect([400, 404].contains(response.status), "\(target): \(response.status)")
                #expect(response.headers["Content-Type"] == "application/problem+json", "\(target)")
                #expect(response.headers["X-Injected"] == nil)
            }
            #expect(stubs.received.isEmpty, "\(stubs.received.map(\.target))")
            let healthy = try await test.get("/v1/people/1")
            #expect(healthy.status == 200)
        }
    }
}
