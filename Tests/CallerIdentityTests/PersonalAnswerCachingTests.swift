import Foundation
import GatewayTesting
import HTTPBasics
import Testing

@testable import Gateway

/// Answers built for one caller say so to the caches in front of the gateway, and the gateway's
/// own combined-answer cache never serves one caller's answer to another (issue 30, finding 4).
@Suite struct PersonalAnswerCachingTests {
    static let file = #"""
        {
          "upstreams": { "orders": { "url": "http://127.0.0.1:1/unused" } },
          "endpoints": [
            {
              "path": "/v2/orders",
              "calls": { "list": { "upstream": "orders", "path": "/orders", "query": { "user": "{auth.sub}" } } },
              "response": { "user": "{auth.sub}", "orders": "{list.items}" }
            },
            {
              "path": "/v2/news",
              "calls": { "list": { "upstream": "orders", "path": "/news" } },
              "response": { "news": "{list.items}" }
            },
            {
              "path": "/v2/open-news", "authentication": "none",
              "calls": { "list": { "upstream": "orders", "path": "/news" } },
              "response": { "news": "{list.items}" }
            }
          ],
          "proxies": [
            { "path": "/raw", "upstream": "orders" },
            { "path": "/open", "upstream": "orders", "authentication": "none" }
          ]
        }
        """#

    @Test("an answer built from the caller's claims, or after its token was checked (proxied too), is private; carol's is never dave's")
    func personalAnswersArePrivate() async throws {
        let key = TestSigningKey(.es256, keyID: "k1")
        let path = try AuthenticationEndToEndTests.keySetFile([key])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/orders") { request in
            .json(Array(#"{"items":["\#(request.query ?? "")"]}"#.utf8), headers: ["Cache-Control": "max-age=60"])
        }
        stub.answer("/news", json: #"{"items":[1]}"#, headers: ["Cache-Control": "max-age=60"])
        let catalog = AuthenticationEndToEndTests.catalog.adding(
            try EndpointsFile(parsing: Array(Self.file.utf8), alongside: AuthenticationEndToEndTests.catalog))
        let gateway = try GatewayUnderTest(
            catalog: catalog,
            environment: AuthenticationEndToEndTests.environment(stub, ["AUTH_JWKS_FILE": path, "UPSTREAM_ORDERS_URL": stub.baseURL]))
        func token(_ subject: String) -> HTTPHeaders {
            AuthenticationEndToEndTests.bearer(
                key.token(#"{"sub":"\#(subject)","iss":"https://id.example","aud":"bff","exp":\#(Date().timeIntervalSince1970 + 60)}"#))
        }

        for (subject, round) in [("carol", 1), ("dave", 1), ("carol", 2), ("dave", 2)] {
            let answer = try await gateway.get("/v2/orders", headers: token(subject))
            #expect(answer.text == #"{"user":"\#(subject)","orders":["user=\#(subject)"],"degraded":[]}"#, "round \(round)")
            #expect(answer.headers["Cache-Control"]?.hasPrefix("private, max-age=") == true, "\(answer.headers)")
        }
        // The same for every caller, but only for callers with a token: private, also when reused.
        for _ in 0..<2 {
            let news = try await gateway.get("/v2/news", headers: token("carol"))
            #expect(news.status == 200)
            #expect(news.headers["Cache-Control"]?.hasPrefix("private, max-age=") == true, "\(news.headers)")
        }
        #expect(try await gateway.get("/v2/news").status == 401)
        // Open to all and reading nothing of the caller: shared caches may keep it.
        let open = try await gateway.get("/v2/open-news")
        #expect(open.headers["Cache-Control"]?.hasPrefix("max-age=") == true, "\(open.headers)")
        // A proxy route: the upstream's own directives, made private behind a token.
        stub.answer("/shared", json: "{}", headers: ["Cache-Control": "public, max-age=60, s-maxage=600"])
        let proxied = try await gateway.get("/raw/shared", headers: token("carol"))
        #expect(proxied.headers.values(named: "Cache-Control") == ["private, max-age=60"])
        let openly = try await gateway.get("/open/shared")
        #expect(openly.headers.values(named: "Cache-Control") == ["public, max-age=60, s-maxage=600"])
        await gateway.stop()
    }
}
