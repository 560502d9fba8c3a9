import Foundation
import Testing

@testable import UpstreamKit

/// Issue #30: every path the gateway checks or builds refuses a dot segment followed by `;`
/// parameters, which servlet containers resolve as `..`: links, redirects, encoded targets and
/// built paths share `DotSegmentScan`.
@Suite("Dot segments with parameters in links, redirects and built paths")
struct ServletDotSegmentTests {
    @Test("a link or redirect climbing with ..; is refused", arguments: [
        "https://swapi.dev/api/..;/admin/", "https://swapi.dev/api/%2e%2e;x=1/admin/", "https://swapi.dev/api/planets/..%3B/..%3B/admin",
        "https://swapi.dev/api/.;/planets/",
    ])
    func links(link: String) throws {
        let base = try Bases.swapi
        #expect(throws: UpstreamError.self) { try base.target(forLink: link) }
        guard case .refuse(.refusedRedirect) = RedirectPolicyTests.policy.step(
            after: RedirectPolicyTests.redirect(302, to: link.replacingOccurrences(of: "swapi.dev/api", with: "api.example.com/v2")),
            to: RedirectPolicyTests.request(), redirectsSoFar: 0)
        else {
            Issue.record("a redirect to \(link) was not refused")
            return
        }
    }

    @Test("links with parameters that climb nowhere still pass")
    func harmlessParameters() throws {
        #expect(try Bases.swapi.target(forLink: "https://swapi.dev/api/planets;v=1/1/") == "/api/planets;v=1/1/")
        #expect(try Bases.swapi.target(forLink: "https://swapi.dev/api/...;/1/") == "/api/...;/1/")
    }

    @Test("a built segment that would climb where a server decodes %2F, %5C or %3B is refused")
    func builtSegments() throws {
        for segment in ["..;", "..;x=1", ".;", "../admin", "a/..", "..\\a", "a\\.."] {
            #expect(throws: InvalidPathSegment.dotSegment) { try Path("people", segment) }
        }
        #expect(try Path("a/b", "...", ";..", "x..;").encoded == "/a%2Fb/.../%3B../x..%3B")
    }
}
