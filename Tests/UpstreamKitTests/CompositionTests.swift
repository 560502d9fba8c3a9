import HTTPBasics
import Testing
@testable import UpstreamKit

@Suite struct CompositionTests {
    @Test func redactsSecretHeadersAndQueryValues() {
        let request = TransportRequest(
            method: .get, origin: Origin(scheme: "https", host: "swapi.dev", port: 443),
            target: "/api/x?page=2&access_token=abc&apiKey=def&q=luke",
            headers: ["Authorization": "Bearer abc", "Cookie": "rl=1", "X-Api-Key": "k", "X-Session-Id": "s", "Accept": "application/json"]
        )
        #expect(Redaction.describe(request) == "GET https://swapi.dev/api/x?page=2&access_token=<redacted>&apiKey=<redacted>&q=luke "
            + "[Authorization: <redacted>, Cookie: <redacted>, X-Api-Key: <redacted>, X-Session-Id: <redacted>, Accept: application/json]")
        #expect(Redaction.target("/plain") == "/plain")
        #expect(Redaction.target("/a?") == "/a?" && Redaction.target("/a?&token=x&&b=é&key") == "/a?&token=<redacted>&&b=é&key")
    }

    @Test("a span's target: the semantic conventions' sensitive query keys and the gateway's own secret names as REDACTED")
    func redactsTargetForSpans() throws {
        let base = try BaseURL("https://bucket.example/b")
        let link = Request<[String: String]>(link: "https://bucket.example/b/f?AWSAccessKeyId=A&Signature=B&sig=C&X-Goog-Signature=D&Expires=9")
        #expect(link.url(against: base, redactingSecretsWith: "REDACTED")
            == "https://bucket.example/b/f?AWSAccessKeyId=REDACTED&Signature=REDACTED&sig=REDACTED&X-Goog-Signature=REDACTED&Expires=9")
        let path = Request<[String: String]>(path: try Path("f"), query: [QueryItem("api_key", "E"), QueryItem("page", "2")])
        #expect(path.url(against: base, redactingSecretsWith: "REDACTED") == "https://bucket.example/b/f?api_key=REDACTED&page=2")
    }

    @Test func countsAttemptsByOutcome() async throws {
        let statuses = Counter()
        let counting = CountingTransport(wrapping: ClosureTransport { _ throws(UpstreamError) in
            switch statuses.increment() {
            case 1: return json("{}")
            case 2: return json("", status: .badGateway)
            default: throw .connectionFailed(reason: "reset")
            }
        })
        let request = TransportRequest(method: .get, origin: try Bases.deck.origin, target: "/")
        _ = try await counting.send(request)
        _ = try await counting.send(request)
        _ = try? await counting.send(request)
        var expected = CountingTransport.Counts()
        expected.attempts = 3
        expected.successes = 1
        expected.failureStatuses = 1
        expected.errors = 1
        #expect(counting.counts == expected)
    }

    @Test func failureDescriptionsNameTheUpstreamAndNoSecrets() {
        #expect(UpstreamFailure(upstream: "swapi", error: .status(.serviceUnavailable, retryAfter: nil)).description == "upstream swapi answered 503")
        #expect(UpstreamFailure(upstream: "deck", error: .refusedLink("link points to another origin")).description
            == "upstream deck link refused (link points to another origin)")
    }
}
