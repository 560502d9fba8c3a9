import HTTPBasics
import Synchronization
import Testing
@testable import UpstreamKit

@Suite struct ActionChainTests {
    private func upstream(_ name: String = "swapi", actions: [any UpstreamAction], log: RequestLog,
                          handler: @escaping @Sendable (TransportRequest) -> Response = { _ in json("{}") }) throws -> Upstream {
        Upstream(
            name: name,
            baseURL: try Bases.swapi,
            settings: UpstreamSettings(retryPolicy: .never, actions: actions),
            transport: ClosureTransport { request throws(UpstreamError) in
                log.append(request)
                return handler(request)
            }
        )
    }

    @Test func bearerTokenOnlyOnRequestsThatRequireIt() async throws {
        let log = RequestLog()
        let swapi = try upstream(actions: [BearerToken("s3cret")], log: log)
        try await swapi.send(Request<Void>(path: Path("public")))
        try await swapi.send(Request<Void>(path: Path("private"), requiresAuthentication: true))
        #expect(log.all.map { $0.headers["Authorization"] } == [nil, "Bearer s3cret"])
        #expect(log.all.allSatisfy { !$0.headers.contains("requiresAuthentication") })
    }

    @Test func refreshedTokenIsUsedFromThenOn() async throws {
        let log = RequestLog()
        let swapi = try upstream(actions: [BearerToken("first")], log: log) { request in
            request.headers["Authorization"] == "Bearer first" ? json("{}", headers: ["X-Refreshed-Token": "second"]) : json("{}")
        }
        for _ in 0..<3 { try await swapi.send(Request<Void>(path: Path("x"), requiresAuthentication: true)) }
        #expect(log.all.map { $0.headers["Authorization"] } == ["Bearer first", "Bearer second", "Bearer second"])
    }

    @Test func a401ToATokenReplacedMeanwhileIsResentOnceWithTheCurrentOne() async throws {
        let token = try BearerToken("first")
        var stale = TransportRequest(method: .get, origin: try Bases.swapi.origin, target: "/api/x", requiresAuthentication: true)
        try await token.prepare(&stale)
        _ = try await token.received(json("{}", headers: ["X-Refreshed-Token": "second"]), for: stale)
        #expect(try await token.received(json("", status: .unauthorized), for: stale) == .resend)
        var current = stale
        try await token.prepare(&current)
        #expect(current.headers["Authorization"] == "Bearer second")
        #expect(try await token.received(json("", status: .unauthorized), for: current) == .accept)
    }

    @Test func refreshedTokenWithHeaderInjectionIsIgnored() async throws {
        let log = RequestLog()
        let swapi = try upstream(actions: [BearerToken("first")], log: log) { _ in
            json("{}", headers: ["X-Refreshed-Token": "evil\r\nX-Injected: 1"])
        }
        for _ in 0..<2 { try await swapi.send(Request<Void>(path: Path("x"), requiresAuthentication: true)) }
        #expect(log.all.map { $0.headers["Authorization"] } == ["Bearer first", "Bearer first"])
    }

    @Test func rateLimitCookieIsCapturedAndReplayed() async throws {
        let log = RequestLog()
        let served = Mutex(0)
        let swapi = try upstream(actions: [CookieJar()], log: log) { request in
            let count = served.withLock { $0 += 1; return $0 }
            if count == 1 { return json("{}", headers: ["Set-Cookie": "rl=token-1; Path=/"]) }
            return request.headers["Cookie"] == "rl=token-1" ? json("{}") : json("", status: .tooManyRequests)
        }
        for _ in 0..<4 { try await swapi.send(Request<Void>(path: Path("people", "1", trailingSlash: true))) }
        #expect(log.all.map { $0.headers["Cookie"] } == [nil, "rl=token-1", "rl=token-1", "rl=token-1"])
    }

    @Test func cookiesOfARelayedAnswerAreNotStoredButTheJarSendsItsOwnWithCredentials() async throws {
        let log = RequestLog()
        let swapi = try upstream(actions: [CookieJar()], log: log) { request in
            json("{}", headers: ["Set-Cookie": request.target.hasSuffix("/own") ? "rl=gateway; Path=/" : "session=client-a; Path=/"])
        }
        var relayed = Request<Response>(.get, .encoded(try EncodedTarget(path: "/login", query: nil)), requiresAuthentication: true) {
            response throws(UpstreamError) in response
        }
        relayed.storesCookies = false
        try await swapi.send(Request<Void>(path: Path("own")))
        _ = try await swapi.exchange(relayed)
        relayed.headers = ["Cookie": "session=client-b"]
        _ = try await swapi.exchange(relayed)
        // A relayed request without the upstream's credentials gets none of the jar's cookies either.
        relayed.requiresAuthentication = false
        _ = try await swapi.exchange(relayed)
        #expect(log.all.map { $0.headers["Cookie"] } == [nil, "rl=gateway", "session=client-b; rl=gateway", "session=client-b"])
    }

    @Test func cookieJarHonoursPathExpiryAndReplacement() async throws {
        let clock = Mutex(1000)
        let jar = CookieJar(now: { clock.withLock { $0 } })
        let origin = Origin(scheme: "https", host: "swapi.dev", port: 443)
        let sent = TransportRequest(method: .get, origin: origin, target: "/api/people/1/")
        let response = Response(status: .ok, headers: HTTPHeaders([
            .init(name: "Set-Cookie", value: "a=1; Path=/api; Max-Age=10"),
            .init(name: "Set-Cookie", value: "b=2; Path=/other"),
            .init(name: "set-cookie", value: "c=3; Path=/; Secure"),
        ]))
        _ = try await jar.received(response, for: sent)
        var next = TransportRequest(method: .get, origin: origin, target: "/api/planets/1/?x=1")
        try await jar.prepare(&next)
        #expect(next.headers["Cookie"] == "a=1; c=3")
        var plain = TransportRequest(method: .get, origin: Origin(scheme: "http", host: "swapi.dev", port: 80), target: "/api/x")
        try await jar.prepare(&plain)
        #expect(plain.headers["Cookie"] == "a=1")
        _ = try await jar.received(Response(status: .ok, headers: ["Set-Cookie": "a=9; Path=/api"]), for: sent)
        clock.withLock { $0 += 60 }
        var later = TransportRequest(method: .get, origin: origin, target: "/api/x")
        try await jar.prepare(&later)
        #expect(later.headers["Cookie"] == "a=9; c=3")
        _ = try await jar.received(Response(status: .ok, headers: ["Set-Cookie": "a=; Path=/api; Max-Age=0"]), for: sent)
        var afterDeletion = TransportRequest(method: .get, origin: origin, target: "/api/x")
        try await jar.prepare(&afterDeletion)
        #expect(afterDeletion.headers["Cookie"] == "c=3")
    }

    @Test func staticHeadersAreSetAndValidated() async throws {
        let log = RequestLog()
        let swapi = try upstream(actions: [try StaticHeaders(["X-Api-Version": "2", "User-Agent": "bff"])], log: log)
        try await swapi.send(Request<Void>(path: Path("x")))
        #expect(log.all.first?.headers["X-Api-Version"] == "2")
        #expect(log.all.first?.headers["User-Agent"] == "bff")
        #expect(throws: UpstreamError.self) { try StaticHeaders(["X-Bad": "a\nb"]) }
    }

    @Test func secretsNeverReachAnotherUpstream() async throws {
        let log = RequestLog()
        let shared = ClosureTransport { request throws(UpstreamError) in
            log.append(request)
            return json("{}", headers: ["Set-Cookie": "session=swapi-cookie; Path=/"])
        }
        let swapi = Upstream(name: "swapi", baseURL: try Bases.swapi,
                             settings: UpstreamSettings(actions: [try BearerToken("swapi-token"), CookieJar()]), transport: shared)
        let deck = Upstream(name: "deck", baseURL: try Bases.deck, settings: UpstreamSettings(actions: [CookieJar()]), transport: shared)
        try await swapi.send(Request<Void>(path: Path("a"), requiresAuthentication: true))
        try await swapi.send(Request<Void>(path: Path("b"), requiresAuthentication: true))
        try await deck.send(Request<Void>(path: Path("c"), requiresAuthentication: true))
        let deckRequests = log.all.filter { $0.origin.host == "deckofcardsapi.com" }
        #expect(deckRequests.count == 1)
        for request in deckRequests {
            #expect(request.headers["Authorization"] == nil)
            #expect(request.headers["Cookie"] == nil)
        }
        #expect(log.all[1].headers["Cookie"] == "session=swapi-cookie")
    }

    @Test func unauthorizedRefreshesOnceUnderFiftyConcurrentRequests() async throws {
        let fetches = Mutex(0)
        let tokenLog = RequestLog()
        let tokenEndpoint = ClosureTransport { request throws(UpstreamError) in
            tokenLog.append(request)
            let number = fetches.withLock { $0 += 1; return $0 }
            return json(#"{"access_token":"t\#(number)","token_type":"Bearer","expires_in":3600}"#)
        }
        let oauth = try OAuth2ClientCredentials(tokenURL: "https://auth.example/oauth/token", clientID: "client", clientSecret: "s3cret",
                                                transport: tokenEndpoint, minimumRefreshInterval: .zero)
        let log = RequestLog()
        // The upstream already revoked t1: only t2 works.
        let swapi = try upstream(actions: [oauth], log: log) { request in
            request.headers["Authorization"] == "Bearer t2" ? json("{}") : json("", status: .unauthorized)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { try await swapi.send(Request<Void>(path: Path("x"), requiresAuthentication: true)) }
            }
            try await group.waitForAll()
        }
        #expect(fetches.withLock { $0 } == 2)
        #expect(log.all.count(where: { $0.headers["Authorization"] == "Bearer t2" }) == 50)
        let tokenRequest = try #require(tokenLog.all.first)
        #expect(tokenRequest.method == .post)
        #expect(tokenRequest.target == "/oauth/token")
        #expect(tokenRequest.headers["Authorization"] == "Basic Y2xpZW50OnMzY3JldA==")
        #expect(tokenRequest.body == Array("grant_type=client_credentials".utf8))
    }

    @Test func unauthorizedFromAnOldTokenDoesNotRefreshAgain() async throws {
        let fetches = Mutex(0)
        let tokenEndpoint = ClosureTransport { _ throws(UpstreamError) in
            let number = fetches.withLock { $0 += 1; return $0 }
            return json(#"{"access_token":"t\#(number)","expires_in":3600}"#)
        }
        let oauth = try OAuth2ClientCredentials(tokenURL: "https://auth.example/token", clientID: "c", clientSecret: "s",
                                                transport: tokenEndpoint, minimumRefreshInterval: .zero)
        let origin = Origin(scheme: "https", host: "swapi.dev", port: 443)
        var request = TransportRequest(method: .get, origin: origin, target: "/api/x", requiresAuthentication: true)
        try await oauth.prepare(&request)
        #expect(request.headers["Authorization"] == "Bearer t1")
        #expect(try await oauth.received(json("", status: .unauthorized), for: request) == .resend)
        var fresh = TransportRequest(method: .get, origin: origin, target: "/api/x", requiresAuthentication: true)
        try await oauth.prepare(&fresh)
        #expect(fresh.headers["Authorization"] == "Bearer t2")
        // A late 401 for t1 must not throw away t2.
        #expect(try await oauth.received(json("", status: .unauthorized), for: request) == .resend)
        var again = TransportRequest(method: .get, origin: origin, target: "/api/x", requiresAuthentication: true)
        try await oauth.prepare(&again)
        #expect(again.headers["Authorization"] == "Bearer t2")
        #expect(fetches.withLock { $0 } == 2)
        var anonymous = TransportRequest(method: .get, origin: origin, target: "/api/x")
        try await oauth.prepare(&anonymous)
        #expect(anonymous.headers["Authorization"] == nil)
    }

    @Test func rejectedCredentialsResendOnlyOnce() async throws {
        let tokenEndpoint = ClosureTransport { _ throws(UpstreamError) in json(#"{"access_token":"t","expires_in":3600}"#) }
        let oauth = try OAuth2ClientCredentials(tokenURL: "https://auth.example/token", clientID: "c", clientSecret: "s",
                                                transport: tokenEndpoint, minimumRefreshInterval: .zero)
        let log = RequestLog()
        let swapi = try upstream(actions: [oauth], log: log) { _ in json("", status: .unauthorized) }
        await #expect(throws: UpstreamFailure(upstream: "swapi", error: .status(.unauthorized, retryAfter: nil))) {
            try await swapi.send(Request<Void>(path: Path("x"), requiresAuthentication: true))
        }
        #expect(log.all.count == 2)
    }

    @Test func logsNeverShowSecrets() async throws {
        let lines = Mutex<[String]>([])
        let swapi = Upstream(
            name: "swapi", baseURL: try Bases.swapi,
            settings: UpstreamSettings(retryPolicy: .never, actions: [try BearerToken("s3cret-token"), CookieJar(),
                                                                      try StaticHeaders(["X-Api-Key": "key-123"])]),
            transport: ClosureTransport { _ throws(UpstreamError) in json("{}", headers: ["Set-Cookie": "rl=cookie-secret"]) },
            log: { line in lines.withLock { $0.append(line) } }
        )
        try await swapi.send(Request<Void>(path: Path("a"), query: [QueryItem("api_token", "q-secret"), QueryItem("page", "2")],
                                           requiresAuthentication: true))
        try await swapi.send(Request<Void>(path: Path("a"), requiresAuthentication: true))
        let all = lines.withLock { $0 }.joined(separator: "\n")
        #expect(all.contains("swapi GET https://swapi.dev/api/a?api_token=<redacted>&page=2"))
        #expect(all.contains("-> 200"))
        for secret in ["s3cret-token", "key-123", "cookie-secret", "q-secret"] {
            #expect(!all.contains(secret))
        }
    }
}
