import BrowserSession
import CallerIdentity
import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import Synchronization
import Testing

@testable import Gateway

/// The backend-for-frontend through real sockets: a stub OpenID provider (discovery, keys, token and
/// revocation endpoints, keys made by OpenSSL now), a browser played by the test, and an upstream that
/// takes the user's token.
@Suite struct BrowserSignInEndToEndTests {
    struct Order: Codable, Sendable {
        var id: Int
        var by: String
    }

    static let orders = UpstreamDefinition(name: "orders", defaultBaseURL: "http://127.0.0.1:1", userToken: true)
    static let catalog = GatewayCatalog(
        upstreams: [orders],
        endpoints: [
            Endpoint("/v1/orders", summary: "The user's orders", upstreams: [orders], example: Order(id: 1, by: "u")) { call in
                try await call.upstream(orders).get("orders", as: Order.self)
            },
            Endpoint("/v1/me", summary: "Who", upstreams: [], example: Order(id: 0, by: "u")) { call in
                Order(id: 0, by: call.identity?.subject ?? "nobody")
            },
        ],
        proxies: [ProxyRoute("/api", upstream: orders)])

    /// A provider on loopback whose token endpoint hands out `accessTokens` in turn, and counts grants.
    final class Provider: Sendable {
        let stub: StubUpstream
        let key = TestSigningKey(.rs256, keyID: "op-1")
        /// The nonce the next ID token carries (set by the test from the authorization URL), and what was granted.
        let state = Mutex(State())
        struct State {
            var nonce = ""
            var expiresIn = 3600
            var refreshFails = false
            var grants: [String] = []
            var revoked: [String] = []
            var issued = 0
            /// The `jti` of every client assertion accepted, and why any was refused.
            var assertionIDs: [String] = []
            var assertionRefusals: [String] = []
        }
        /// The client's key when it authenticates with `private_key_jwt`; nil for its secret.
        let clientKey: TestSigningKey?

        var issuer: String { stub.baseURL }

        /// A provider whose discovery names `revocation_endpoint` when `revocationInDiscovery`, else only
        /// its RFC 8414 document does, and lists `authenticationMethods`.
        init(
            clientKey: TestSigningKey? = nil, revocationInDiscovery: Bool = true,
            authenticationMethods: [String] = ["client_secret_basic", "private_key_jwt"]
        ) throws {
            self.clientKey = clientKey
            stub = try StubUpstream()
            let issuer = stub.baseURL
            let methods = authenticationMethods.map { #""\#($0)""# }.joined(separator: ",")
            stub.answer(
                "/.well-known/openid-configuration",
                json: #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","jwks_uri":"\#(issuer)/jwks","end_session_endpoint":"\#(issuer)/logout",\#(revocationInDiscovery ? #""revocation_endpoint":"\#(issuer)/revoke","# : "")"token_endpoint_auth_methods_supported":[\#(methods)]}"#)
            stub.answer("/.well-known/oauth-authorization-server", json: #"{"issuer":"\#(issuer)","revocation_endpoint":"\#(issuer)/revoke"}"#)
            stub.answer("/jwks", json: keySet([key]))
            stub.answer("/token", method: .post) { [self] request in
                let form = String(decoding: request.body, as: UTF8.self)
                let grant = form.contains("grant_type=refresh_token") ? "refresh_token" : "authorization_code"
                let (nonce, expiresIn, fails, number) = state.withLock { state in
                    state.grants.append(grant)
                    state.issued += 1
                    return (state.nonce, state.expiresIn, grant == "refresh_token" && state.refreshFails, state.issued)
                }
                guard authenticates(request) else { return .json(Array(#"{"error":"invalid_client"}"#.utf8), status: .unauthorized) }
                if fails { return .json(Array(#"{"error":"invalid_grant"}"#.utf8), status: .badRequest) }
                let now = Int(Date().timeIntervalSince1970)
                let idToken = key.token(#"{"sub":"alice","iss":"\#(issuer)","aud":"app","exp":\#(now + 300),"iat":\#(now),"nonce":"\#(nonce)","name":"Alice","sid":"op-session-1"}"#)
                return .json(Array(#"{"access_token":"at-\#(number)","token_type":"Bearer","expires_in":\#(expiresIn),"refresh_token":"rt-\#(number)","id_token":"\#(idToken)"}"#.utf8))
            }
            stub.answer("/revoke", method: .post) { [self] request in
                guard authenticates(request) else { return .json(Array(#"{"error":"invalid_client"}"#.utf8), status: .unauthorized) }
                let form = String(decoding: request.body, as: UTF8.self)
                state.withLock { $0.revoked.append(String(form.prefix { $0 != "&" }) + "&" + form.split(separator: "&")[1]) }
                return HTTPResponse(status: .ok)
            }
        }

        /// Whether `request` carries the client's secret in Basic, or with a client key, a good
        /// assertion: RFC 7523 §3's claims, signed by that key, for the token endpoint, a `jti` never seen before.
        func authenticates(_ request: StubUpstream.ReceivedRequest) -> Bool {
            guard let clientKey else { return request.headers["Authorization"] == "Basic " + Data("app:s3cret".utf8).base64EncodedString() }
            let form = QueryParameters(decoding: String(decoding: request.body, as: UTF8.self))
            func refuse(_ reason: String) -> Bool {
                state.withLock { $0.assertionRefusals.append(reason) }
                return false
            }
            guard request.headers["Authorization"] == nil, form?["client_secret"] == nil else { return refuse("a secret too") }
            guard form?["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", let assertion = form?["client_assertion"]
            else { return refuse("no assertion") }
            let identity: Identity
            do {
                identity = try TokenVerifier(issuer: "app", audience: issuer + "/token", leeway: .zero)
                    .verify(assertion, keys: try JSONWebKeySet(parsing: Array(keySet([clientKey]).utf8)), now: Date().timeIntervalSince1970)
            } catch {
                return refuse("\(error)")
            }
            guard identity.subject == "app", let jti = identity.claim("jti")?.text, identity.expiresAt <= Date().timeIntervalSince1970 + 61
            else { return refuse("claims") }
            return state.withLock { state in
                guard !state.assertionIDs.contains(jti) else {
                    state.assertionRefusals.append("jti replayed")
                    return false
                }
                state.assertionIDs.append(jti)
                return true
            }
        }

        func grants(_ kind: String) -> Int { state.withLock { $0.grants.filter { $0 == kind }.count } }
    }

    /// A gateway's environment with `provider` and `upstream`; with the provider's client key written
    /// to `keyFile`, authenticating with it instead of the secret.
    static func environment(_ provider: Provider, _ upstream: StubUpstream, keyFile: String? = nil) -> [String: String] {
        if let keyFile, let key = provider.clientKey {
            _ = FileManager.default.createFile(atPath: keyFile, contents: Data(key.pem))
            var environment = environment(provider, upstream)
            environment["OIDC_CLIENT_SECRET"] = nil
            environment["OIDC_CLIENT_PRIVATE_KEY_FILE"] = keyFile
            environment["OIDC_CLIENT_KEY_ID"] = key.keyID
            return environment
        }
        return environment(provider, upstream)
    }

    static func environment(_ provider: Provider, _ upstream: StubUpstream) -> [String: String] {
        [
            "UPSTREAM_ORDERS_URL": upstream.baseURL, "OIDC_ISSUER": provider.issuer, "OIDC_CLIENT_ID": "app", "OIDC_CLIENT_SECRET": "s3cret",
            "OIDC_REDIRECT_URI": "https://app.example/bff/callback", "CACHE_MAX_BYTES": "1000000",
        ]
    }

    /// The query parameter `name` of `url`.
    static func parameter(_ name: String, of url: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == name }?.value
    }

    /// Plays the browser through a whole sign-in: login, the provider (skipped: the code is made up),
    /// callback. Returns the callback's answer and the session cookie.
    static func signIn(
        _ gateway: GatewayUnderTest, _ provider: Provider, returnUrl: String = "/app", callbackOn replica: GatewayUnderTest? = nil
    ) async throws -> (TestResponse, String?) {
        let login = try await gateway.get("/bff/login?returnUrl=" + returnUrl.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        #expect(login.status == 302)
        let location = try #require(login.headers["Location"])
        #expect(location.hasPrefix(provider.issuer + "/authorize?"))
        #expect(parameter("code_challenge_method", of: location) == "S256")
        let state = try #require(parameter("state", of: location))
        provider.state.withLock { $0.nonce = parameter("nonce", of: location) ?? "" }
        let signInCookie = try #require(login.headers.values(named: "Set-Cookie").first { $0.hasPrefix("__Host-bff-signin=") })
        let callback = try await (replica ?? gateway).get(
            "/bff/callback?code=c1&state=\(state)", headers: ["Cookie": String(signInCookie.prefix { $0 != ";" })])
        let session = callback.headers.values(named: "Set-Cookie").first { $0.hasPrefix("__Host-bff-session=") }
        return (callback, session.map { String($0.prefix { $0 != ";" }) })
    }

    static func onSession(_ cookie: String, csrf: Bool = true) -> HTTPHeaders {
        var headers: HTTPHeaders = ["Cookie": cookie]
        if csrf { headers.add("X-CSRF", "1") }
        return headers
    }

    @Test func signInRoundTripUserTokenAndLogout() async throws {
        let provider = try Provider()
        defer { provider.stub.shutdown() }
        let upstream = try StubUpstream()
        defer { upstream.shutdown() }
        upstream.answer("/orders") { request in
            let by = request.headers["Authorization"] ?? "none"
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=60"], body: Array(#"{"id":7,"by":"\#(by)"}"#.utf8))
        }
        try await withGateway(catalog: Self.catalog, environment: Self.environment(provider, upstream)) { gateway in
            #expect(try await gateway.get("/v1/orders").status == 401, "no session: 401, never a redirect")
            let (callback, cookie) = try await Self.signIn(gateway, provider)
            #expect(callback.status == 302, "\(callback.text)")
            #expect(callback.headers["Location"] == "/app")
            let setCookie = try #require(callback.headers.values(named: "Set-Cookie").first { $0.hasPrefix("__Host-bff-session=") })
            #expect(setCookie.hasSuffix("; Path=/; Secure; HttpOnly; SameSite=Lax"))
            #expect(!setCookie.contains("Domain"))
            let session = try #require(cookie)
            #expect(!callback.text.contains("at-1") && !setCookie.contains("at-1"))

            let user = try await gateway.get("/bff/user", headers: Self.onSession(session))
            #expect(user.status == 200)
            #expect(user.text.contains(#""sub":"alice""#) && user.text.contains(#""logoutUrl":"/bff/logout""#))
            #expect(!user.text.contains("nonce") && !user.text.contains("at-1") && !user.text.contains("rt-1"), "no token reaches the page")

            let me = try await gateway.get("/v1/me", headers: Self.onSession(session))
            #expect(try me.json(as: Order.self).by == "alice")
            #expect(try await gateway.get("/v1/me", headers: Self.onSession(session, csrf: false)).status == 403)

            let orders = try await gateway.get("/v1/orders", headers: Self.onSession(session))
            #expect(orders.status == 200)
            #expect(try orders.json(as: Order.self).by == "Bearer at-1", "the user's token reaches the upstream")
            let control = orders.headers["Cache-Control"] ?? ""
            #expect(control == "no-store" || control.hasPrefix("private"), "no shared cache keeps a user's answer")

            // Another user's session is never served the first one's stored answer.
            provider.state.withLock { $0.nonce = "" }
            let (_, other) = try await Self.signIn(gateway, provider)
            let theirs = try await gateway.get("/v1/orders", headers: Self.onSession(try #require(other)))
            #expect(try theirs.json(as: Order.self).by == "Bearer at-2")

            // A proxy route admits the session with the CSRF header, and never relays the session cookie.
            upstream.answer("/echo") { request in
                let seen = request.headers.values(named: "Cookie").joined(separator: "|") + " " + (request.headers["Authorization"] ?? "")
                return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array(seen.utf8))
            }
            var proxied = Self.onSession(session)
            proxied.set("Cookie", "theme=dark; " + session)
            let echo = try await gateway.get("/api/echo", headers: proxied)
            #expect(echo.status == 200)
            #expect(echo.text == "theme=dark Bearer at-1", "the user's token, and no session cookie")
            #expect(try await gateway.get("/api/echo", headers: Self.onSession(session, csrf: false)).status == 403)

            let logout = try await gateway.send(.post, "/bff/logout", headers: Self.onSession(session))
            #expect(logout.status == 200)
            #expect(logout.text.contains(provider.issuer + "/logout?client_id=app&post_logout_redirect_uri="))
            #expect(logout.headers["Set-Cookie"]?.contains("Max-Age=0") == true)
            #expect(provider.state.withLock { $0.revoked } == ["token=rt-1&token_type_hint=refresh_token"])
            #expect(try await gateway.get("/v1/me", headers: Self.onSession(session)).status == 401, "the old cookie is dead")
            #expect(try await gateway.get("/bff/user", headers: Self.onSession(session)).status == 401)
        }
    }

    @Test func refusesForgedCallbacksAndReturnURLs() async throws {
        let provider = try Provider()
        defer { provider.stub.shutdown() }
        let upstream = try StubUpstream()
        defer { upstream.shutdown() }
        try await withGateway(catalog: Self.catalog, environment: Self.environment(provider, upstream)) { gateway in
            for open in ["https://evil.example/", "//evil.example", "/\\evil.example"] {
                let refused = try await gateway.get("/bff/login?returnUrl=" + open.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                #expect(refused.status == 400, "open redirect to \(open)")
            }
            let login = try await gateway.get("/bff/login")
            let state = try #require(Self.parameter("state", of: login.headers["Location"] ?? ""))
            // The right state without this browser's cookie (a callback carried to another browser): refused.
            #expect(try await gateway.get("/bff/callback?code=c1&state=\(state)").status == 400)
            #expect(try await gateway.get("/bff/callback?code=c1&state=\(state)", headers: ["Cookie": "__Host-bff-signin=other"]).status == 400)
            #expect(provider.grants("authorization_code") == 0)

            // A nonce other than the sign-in's: the ID token is refused.
            let again = try await gateway.get("/bff/login")
            let secondState = try #require(Self.parameter("state", of: again.headers["Location"] ?? ""))
            provider.state.withLock { $0.nonce = "not-the-one" }
            let wrongNonce = try await gateway.get("/bff/callback?code=c1&state=\(secondState)", headers: ["Cookie": "__Host-bff-signin=\(secondState)"])
            #expect(wrongNonce.status == 400)
            #expect(!wrongNonce.headers.values(named: "Set-Cookie").contains { $0.hasPrefix("__Host-bff-session=") })

            // A forged session id.
            #expect(try await gateway.get("/v1/me", headers: Self.onSession("__Host-bff-session=forged")).status == 401)
            let metrics = try await gateway.get("/metrics")
            #expect(metrics.text.contains(#"gateway_sign_in_failures_total{reason="state"} 2"#))
            #expect(metrics.text.contains(#"gateway_sign_in_failures_total{reason="id_token"} 1"#))
        }
    }

    @Test func twentyConcurrentRequestsShareOneRefresh() async throws {
        let provider = try Provider()
        defer { provider.stub.shutdown() }
        let upstream = try StubUpstream()
        defer { upstream.shutdown() }
        upstream.answer("/orders") { request in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"{"id":7,"by":"\#(request.headers["Authorization"] ?? "")"}"#.utf8))
        }
        try await withGateway(catalog: Self.catalog, environment: Self.environment(provider, upstream)) { gateway in
            // The first access token lives 10 s: inside the 30 s skew, so due for a refresh.
            provider.state.withLock { $0.expiresIn = 10 }
            let (_, cookie) = try await Self.signIn(gateway, provider)
            let session = try #require(cookie)
            provider.state.withLock { $0.expiresIn = 3600 }
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<20 { group.addTask { try await gateway.get("/v1/orders", headers: Self.onSession(session)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == 200 })
            #expect(try answers.allSatisfy { try $0.json(as: Order.self).by == "Bearer at-2" })
            #expect(provider.grants("refresh_token") == 1)
            #expect(try await gateway.get("/metrics").text.contains("gateway_session_refreshes_total 1"))

            // A refresh the provider refuses ends the session.
            let (_, second) = try await Self.signIn(gateway, provider)
            provider.state.withLock {
                $0.expiresIn = 0
                $0.refreshFails = true
            }
            let (_, third) = try await Self.signIn(gateway, provider)
            let ended = try await gateway.get("/v1/orders", headers: Self.onSession(try #require(third)))
            #expect(ended.status == 401)
            #expect(try await gateway.get("/v1/me", headers: Self.onSession(try #require(third))).status == 401)
            #expect(try await gateway.get("/v1/me", headers: Self.onSession(try #require(second))).status == 200)
        }
    }

    @Test func backChannelLogoutEndsTheSessionsItNames() async throws {
        let provider = try Provider()
        let upstream = try StubUpstream()
        defer { provider.stub.shutdown(); upstream.shutdown() }
        upstream.answer("/orders", json: #"{"id":7,"by":"alice"}"#)
        try await withGateway(catalog: Self.catalog, environment: Self.environment(provider, upstream)) { gateway in
            let (_, cookie) = try await Self.signIn(gateway, provider)
            let session = try #require(cookie)
            #expect(try await gateway.get("/v1/orders", headers: Self.onSession(session)).status == 200)
            func logoutToken(_ claims: String) -> String { Self.logoutToken(provider, claims, jti: "j-\(claims.count)") }
            let form = Self.form
            // An ID token is no logout token, and another session's token ends nothing.
            let refused = try await gateway.send(.post, "/bff/backchannel-logout", headers: form, body: "logout_token=" + logoutToken(#""sid":"op-session-1","nonce":"n""#))
            #expect(refused.status == 400)
            let other = try await gateway.send(.post, "/bff/backchannel-logout", headers: form, body: "logout_token=" + logoutToken(#""sid":"op-session-2""#))
            #expect(other.status == 200)
            #expect(try await gateway.get("/v1/orders", headers: Self.onSession(session)).status == 200)
            let ended = try await gateway.send(.post, "/bff/backchannel-logout", headers: form, body: "logout_token=" + logoutToken(#""sub":"alice","sid":"op-session-1""#))
            #expect(ended.status == 200)
            #expect(ended.headers["Cache-Control"] == "no-store")
            #expect(try await gateway.get("/v1/orders", headers: Self.onSession(session)).status == 401)
            // The same token again, after the user signed in anew: a replay, refused, and the new session lives.
            let (_, again) = try await Self.signIn(gateway, provider)
            let replayed = try await gateway.send(.post, "/bff/backchannel-logout", headers: form, body: "logout_token=" + logoutToken(#""sub":"alice","sid":"op-session-1""#))
            #expect(replayed.status == 400)
            #expect(replayed.text.contains("the logout token was used before"))
            #expect(try await gateway.get("/v1/orders", headers: Self.onSession(try #require(again))).status == 200)
            let notAForm = try await gateway.send(.post, "/bff/backchannel-logout", body: #"{"logout_token":"x"}"#)
            #expect(notAForm.status == 400)
        }
    }

    static let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]

    /// A back-channel logout token of `provider` with `claims` and `jti`, valid for two minutes.
    static func logoutToken(_ provider: Provider, _ claims: String, jti: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return provider.key.token(#"{"iss":"\#(provider.issuer)","aud":"app","iat":\#(now),"exp":\#(now + 120),"jti":"\#(jti)","events":{"http://schemas.openid.net/event/backchannel-logout":{}},\#(claims)}"#)
    }

    @Test(.enabled(if: RedisServer.isInstalled, "redis-server is not installed"))
    func twoReplicasShareSessionsThroughRedis() async throws {
        let provider = try Provider()
        let upstream = try StubUpstream()
        let redis = try RedisServer()
        defer { provider.stub.shutdown(); upstream.shutdown() }
        upstream.answer("/orders", json: #"{"id":7,"by":"alice"}"#)
        var environment = Self.environment(provider, upstream)
        environment["REDIS_URL"] = "redis://127.0.0.1:\(redis.port)"
        environment["SESSION_ENCRYPTION_KEY"] = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
        try await withGateway(catalog: Self.catalog, environment: environment) { a in
            try await withGateway(catalog: Self.catalog, environment: environment) { b in
                // The sign-in's pending state travels sealed in its cookie: the callback may reach the other replica.
                // Its access token lives 10 s, inside the 30 s skew: due for a refresh.
                provider.state.withLock { $0.expiresIn = 10 }
                let (callback, cookie) = try await Self.signIn(a, provider, callbackOn: b)
                provider.state.withLock { $0.expiresIn = 3600 }
                #expect(callback.status == 302)
                let session = try #require(cookie)
                // Twenty requests at once, spread over both replicas: one refresh at the provider.
                let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for index in 0..<20 {
                        group.addTask { try await (index % 2 == 0 ? a : b).get("/v1/orders", headers: Self.onSession(session)) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.status == 200 })
                #expect(provider.grants("refresh_token") == 1)
                let logout = try await b.send(.post, "/bff/logout", headers: Self.onSession(session))
                #expect(logout.status == 200)
                #expect(provider.state.withLock { $0.revoked.count } == 1)
                #expect(try await a.get("/v1/orders", headers: Self.onSession(session)).status == 401, "logged out on B, refused by A")
                // A logout token accepted by A is a replay at B.
                let body = "logout_token=" + Self.logoutToken(provider, #""sub":"alice""#, jti: ProofKey.randomToken())
                #expect(try await a.send(.post, "/bff/backchannel-logout", headers: Self.form, body: body).status == 200)
                let replayed = try await b.send(.post, "/bff/backchannel-logout", headers: Self.form, body: body)
                #expect(replayed.status == 400)
                #expect(replayed.text.contains("the logout token was used before"))
            }
        }
        var missingKey = environment
        missingKey["SESSION_ENCRYPTION_KEY"] = nil
        #expect(throws: GatewayStartupError.self) { try GatewayUnderTest(catalog: Self.catalog, environment: missingKey) }
    }

    @Test(arguments: [SignatureAlgorithm.rs256, .es256])
    func privateKeyJWTSignsInRefreshesAndRevokesWithoutASecret(algorithm: SignatureAlgorithm) async throws {
        let provider = try Provider(clientKey: TestSigningKey(algorithm, keyID: "client-1"), revocationInDiscovery: false)
        let upstream = try StubUpstream()
        defer { provider.stub.shutdown(); upstream.shutdown() }
        upstream.answer("/orders") { request in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"{"id":7,"by":"\#(request.headers["Authorization"] ?? "")"}"#.utf8))
        }
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("client-key-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        try await withGateway(catalog: Self.catalog, environment: Self.environment(provider, upstream, keyFile: keyFile)) { gateway in
            let refusal = await gateway.served.signIn?.provider.startupRefusal()
            #expect(refusal == nil)
            provider.state.withLock { $0.expiresIn = 10 }
            let (callback, cookie) = try await Self.signIn(gateway, provider)
            #expect(callback.status == 302, "\(callback.text)")
            let session = try #require(cookie)
            let orders = try await gateway.get("/v1/orders", headers: Self.onSession(session))
            #expect(try orders.json(as: Order.self).by == "Bearer at-2", "refreshed with an assertion")
            let logout = try await gateway.send(.post, "/bff/logout", headers: Self.onSession(session))
            #expect(logout.status == 200)
            // The revocation endpoint came from RFC 8414's document: discovery names none.
            #expect(provider.state.withLock { $0.revoked } == ["token=rt-2&token_type_hint=refresh_token"])
        }
        let state = provider.state.withLock { $0 }
        #expect(state.assertionRefusals == [])
        #expect(state.assertionIDs.count == 3 && Set(state.assertionIDs).count == 3, "code, refresh, revocation: a jti each")
    }

    @Test func aProviderThatDoesNotTakeTheMethodEndsStartUp() async throws {
        let provider = try Provider(clientKey: TestSigningKey(.es256, keyID: "client-1"), authenticationMethods: ["client_secret_basic"])
        let upstream = try StubUpstream()
        defer { provider.stub.shutdown(); upstream.shutdown() }
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("client-key-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        try await withGateway(catalog: Self.catalog, environment: Self.environment(provider, upstream, keyFile: keyFile)) { gateway in
            let refusal = await gateway.served.signIn?.provider.startupRefusal()
            #expect(refusal == "configuration error: OIDC_CLIENT_AUTH is private_key_jwt, which the provider's token_endpoint_auth_methods_supported does not list (client_secret_basic)")
            let login = try await gateway.get("/bff/login")
            #expect(login.status == 502)
        }
    }

    @Test func aProviderThatIsDownIsA502NotAFailedStart() async throws {
        let upstream = try StubUpstream()
        defer { upstream.shutdown() }
        let down = try StubUpstream()
        let issuer = down.baseURL
        down.shutdown()
        let provider = try Provider()
        defer { provider.stub.shutdown() }
        var environment = Self.environment(provider, upstream)
        environment["OIDC_ISSUER"] = issuer
        try await withGateway(catalog: Self.catalog, environment: environment) { gateway in
            let login = try await gateway.get("/bff/login")
            #expect(login.status == 502)
            #expect(login.headers["Content-Type"] == "application/problem+json")
            #expect(try await gateway.get("/healthz").status == 200)
        }
    }
}
