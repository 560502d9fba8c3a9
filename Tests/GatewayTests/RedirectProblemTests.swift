import HTTPBasics
import Testing
import Upstream

@testable import Gateway

/// What a client is told when an upstream's redirect is not followed.
@Suite("Redirects in problems")
struct RedirectProblemTests {
    @Test("a refused target and a redirect past the limit are 502s naming the target or the limit")
    func badGateway() {
        #expect(UpstreamFailure(upstream: "bin", error: .refusedRedirect(target: "https://evil.example/x")).problem
            == GatewayProblem(.badGateway, "upstream bin redirected outside its base URL, to https://evil.example/x; not followed"))
        #expect(UpstreamFailure(upstream: "bin", error: .tooManyRedirects(limit: 5)).problem
            == GatewayProblem(.badGateway, "upstream bin redirected more than 5 times"))
    }
}
