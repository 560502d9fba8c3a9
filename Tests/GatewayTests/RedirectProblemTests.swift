import GatewayTesting
import HTTPBasics
import Testing
import UpstreamKit

@testable import Gateway

/// What a client is told when an upstream's redirect is not followed.
@Suite("Redirects in problems")
struct RedirectProblemTests {
    @Test("a refused target and a redirect past the limit are 502s; the target is not named (issue #30), the limit is")
    func badGateway() {
        #expect(UpstreamFailure(upstream: "bin", error: .refusedRedirect(target: "https://evil.example/x")).problem
            == GatewayProblem(.badGateway, "upstream bin redirected outside its base URL; not followed"))
        #expect(UpstreamFailure(upstream: "bin", error: .tooManyRedirects(limit: 5)).problem
            == GatewayProblem(.badGateway, "upstream bin redirected more than 5 times"))
    }

    @Test("over sockets: a redirect to an internal host is a 502 that does not name it")
    func internalHostNotShown() async throws {
        try await withScenarioGateway { gateway, stubs in
            stubs.answer(
                under: "/swapi/api/people/", status: .found, headers: ["Location": "http://db-7.internal.corp:8080/admin/"], body: "")
            let response = try await gateway.get("/v1/people/1")
            #expect(response.status == 502)
            #expect(response.text.contains("redirected outside its base URL"))
            #expect(!response.text.contains("internal") && !response.text.contains("db-7"))
        }
    }
}
