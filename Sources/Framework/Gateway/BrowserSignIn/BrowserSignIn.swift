import BrowserSession
import CallerIdentity
import Foundation
import HTTP1Server
import HTTPBasics
import JSONCoding
import Synchronization
import UpstreamKit

/// The backend-for-frontend: a confidential OpenID Connect client that signs browsers in, keeps their
/// tokens on the server and gives them only an HttpOnly session cookie (docs/SECURITY.md).
///
/// Serves `{prefix}/login`, `/callback`, `/user` and `/logout`, and admits API requests on a session
/// (`admit`), refreshing the user's access token first when a route's upstreams take it.
final class BrowserSignIn: Sendable {
    let configuration: BrowserSignInConfiguration
    let provider: OpenIDProvider
    let store: any SessionStore
    let metrics: BrowserSessionMetrics
    private let pending = Mutex(PendingSignIns())
    private let events: EventLog
    /// The wall clock, in seconds since 1970.
    private let now: @Sendable () -> Double

    /// The cookie that binds a pending sign-in to the browser that started it, so a callback carried
    /// to another browser (login CSRF) is refused. Lax: the provider's redirect back is a cross-site
    /// top-level navigation.
    static let signInCookieName = "__Host-bff-signin"
    /// How long a browser may take at the provider.
    static let signInLifetime = 600.0

    /// Sign-ins started and not yet called back, by `state`: at most `capacity`, the oldest dropped
    /// first, so a flood of logins costs only other unfinished logins.
    struct PendingSignIns {
        static let capacity = 10_000
        private var byState: [String: PendingSignIn] = [:]
        private var order: [String] = []

        mutating func insert(_ signIn: PendingSignIn, now: Double) {
            if byState.count >= Self.capacity {
                order.removeAll { byState[$0].map { $0.deadline < now } ?? true }
                byState = byState.filter { $0.value.deadline >= now }
                while byState.count >= Self.capacity, !order.isEmpty { byState[order.removeFirst()] = nil }
            }
            byState[signIn.state] = signIn
            order.append(signIn.state)
        }

        /// The sign-in of `state`, taken: a callback is accepted once.
        mutating func take(_ state: String) -> PendingSignIn? {
            guard let signIn = byState.removeValue(forKey: state) else { return nil }
            if let index = order.firstIndex(of: state) { order.remove(at: index) }
            return signIn
        }
    }

    init(
        configuration: BrowserSignInConfiguration, provider: OpenIDProvider, store: any SessionStore, metrics: BrowserSessionMetrics, events: EventLog,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.configuration = configuration
        self.provider = provider
        self.store = store
        self.metrics = metrics
        self.events = events
        self.now = now
    }

    // MARK: Routes

    /// The four sign-in routes, documented and served.
    var routes: [GatewayRoute] {
        let prefix = configuration.pathPrefix
        return [
            GatewayRoute(
                documentation: RouteDocumentation(
                    method: .get, path: prefix + "/login", summary: "Starts the browser's sign-in at the OpenID provider",
                    parameters: [.query("returnUrl", "where to go after signing in: a path here or an allowed origin")],
                    responses: [
                        DocumentedResponse(status: 302, description: "To the provider's sign-in page"),
                        .problem(400, "returnUrl is not a path on this site or an allowed origin"),
                        .problem(502, "The OpenID provider could not be used"),
                    ]),
                handler: { [self] request, match, _ in await login(request, match) }),
            GatewayRoute(
                documentation: RouteDocumentation(
                    method: .get, path: prefix + "/callback", summary: "Where the provider sends the browser back; starts the session",
                    parameters: [],
                    responses: [
                        DocumentedResponse(status: 302, description: "Signed in: to the return URL, with the session cookie"),
                        .problem(400, "The callback does not belong to a sign-in this browser started, or the provider refused it"),
                        .problem(502, "The OpenID provider could not be used or sent an unusable token"),
                    ]),
                handler: { [self] request, match, _ in await callback(request, match) }),
            GatewayRoute(
                documentation: RouteDocumentation(
                    method: .get, path: prefix + "/user", summary: "The signed-in user's claims and the logout URL (X-CSRF: 1 required)",
                    parameters: [],
                    responses: [
                        DocumentedResponse(status: 200, description: "Signed in: claims, logoutUrl, sessionExpiresIn"),
                        .problem(401, "Not signed in"), .problem(403, "The CSRF header is missing"),
                    ]),
                handler: { [self] request, _, _ in await user(request) }),
            GatewayRoute(
                documentation: RouteDocumentation(
                    method: .post, path: prefix + "/logout", summary: "Ends the session, revokes the refresh token; the provider's logout URL",
                    parameters: [],
                    responses: [
                        DocumentedResponse(status: 200, description: "Signed out: logoutUrl, where to send the browser next"),
                        .problem(403, "The CSRF header is missing"),
                    ]),
                handler: { [self] request, _, _ in await logout(request) }),
            GatewayRoute(
                documentation: RouteDocumentation(
                    method: .post, path: prefix + "/backchannel-logout",
                    summary: "The provider's back-channel logout (a logout_token form): ends the sessions it names on every replica",
                    parameters: [],
                    responses: [
                        DocumentedResponse(status: 200, description: "The sessions the token names have ended"),
                        .problem(400, "No valid logout token"), .problem(503, "The session store cannot answer; the provider may retry"),
                    ]),
                handler: { [self] request, _, _ in await backChannelLogout(request) }),
        ]
    }

    func login(_ request: HTTPRequest, _ match: RouteMatch) async -> HTTPResponse {
        guard let returnURL = configuration.returnURLs.accepted(match.query["returnUrl"]) else {
            return GatewayProblem(.badRequest, "returnUrl is not a path on this site or an allowed origin").response(instance: request.path)
        }
        let metadata: ProviderMetadata
        do {
            metadata = try await provider.metadata()
        } catch {
            events.log(.warning, "sign-in: \(error)")
            return error.problem.response(instance: request.path)
        }
        let now = self.now()
        let signIn = PendingSignIn(
            state: ProofKey.randomToken(), nonce: ProofKey.randomToken(), codeVerifier: ProofKey.randomToken(), returnURL: returnURL,
            deadline: now + Self.signInLifetime)
        // Sealed in its cookie when sessions are sealed (any replica then takes the callback), else kept here.
        let cookieValue: String
        if let sealer = configuration.sealer {
            cookieValue = sealer.sealForCookie(signIn)
        } else {
            pending.withLock { $0.insert(signIn, now: now) }
            cookieValue = signIn.state
        }
        let authorization = AuthorizationRequest(
            endpoint: metadata.authorizationEndpoint, clientID: configuration.client.clientID, redirectURI: configuration.redirectURI,
            scopes: configuration.scopes)
        var headers: HTTPHeaders = ["Location": authorization.url(for: signIn), "Cache-Control": "no-store"]
        headers.add("Set-Cookie", "\(Self.signInCookieName)=\(cookieValue); Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=\(Int(Self.signInLifetime))")
        return HTTPResponse(status: .found, headers: headers)
    }

    func callback(_ request: HTTPRequest, _ match: RouteMatch) async -> HTTPResponse {
        func refuse(_ status: HTTPStatus, _ reason: String, _ detail: String) -> HTTPResponse {
            metrics.recordFailedSignIn(reason)
            return GatewayProblem(status, detail).response(instance: request.path, headers: ["Set-Cookie": Self.clearingSignInCookie])
        }
        let cookies = request.headers.values(named: "Cookie")
        let bound = SessionCookie.value(of: Self.signInCookieName, in: cookies)
        // The state must be the one this browser's cookie holds: a callback carried to another browser is refused.
        guard let state = match.query["state"], let bound, let signIn = pendingSignIn(state: state, cookie: bound) else {
            return refuse(.badRequest, "state", "the callback does not belong to a sign-in this browser started; sign in again")
        }
        let now = self.now()
        let code: String
        do {
            code = try signIn.code(from: Self.parameters(match.query), now: now)
        } catch .providerError(let error) {
            let printable = error.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") } && error.utf8.count <= 64
            events.log(.info, "sign-in: the provider answered \(printable ? error : "an unprintable error")")
            return refuse(.badRequest, "provider_refused", "the provider did not sign the user in" + (printable ? " (\(error))" : ""))
        } catch {
            return refuse(.badRequest, "state", "the callback is not valid: \(error == .expired ? "the sign-in took too long" : "it has no code")")
        }
        let tokens: TokenEndpoint.Tokens
        do {
            tokens = try await provider.tokens(
                .codeExchange(code: code, codeVerifier: signIn.codeVerifier, redirectURI: configuration.redirectURI), now: now)
        } catch {
            events.log(.warning, "sign-in: code exchange failed: \(error)")
            return refuse(.badGateway, error is OpenIDProvider.Unavailable ? "provider_unavailable" : "token_endpoint", "the sign-in could not be completed at the provider")
        }
        guard let idToken = tokens.idToken else {
            return refuse(.badGateway, "id_token", "the provider sent no ID token")
        }
        let identity: Identity
        do {
            identity = try await verify(idToken, nonce: signIn.nonce, now: now)
        } catch {
            events.log(.warning, "sign-in: \(error)")
            return refuse(error == .nonce ? .badRequest : .badGateway, "id_token", "the provider's ID token was refused: \(error)")
        }
        // A new id at every sign-in, and the browser's previous session ended: a planted id (session fixation) never becomes a session.
        if let previous = configuration.cookie.sessionID(in: cookies) { _ = try? await store.remove(previous) }
        let record = SessionRecord(
            id: ProofKey.randomToken(), subject: identity.subject ?? "", providerSessionID: identity.claim("sid")?.text,
            claimsJSON: String(decoding: identity.claimsJSON, as: UTF8.self), idToken: idToken, accessToken: tokens.accessToken,
            accessTokenExpiresAt: tokens.expiresIn.map { now + $0 }, refreshToken: tokens.refreshToken, createdAt: now, lastSeenAt: now)
        do {
            try await store.insert(record)
        } catch {
            events.log(.warning, "sign-in: the session could not be stored: \(error)")
            return GatewayProblem(.serviceUnavailable, "the session could not be stored; try again later").response(instance: request.path)
        }
        metrics.recordSignIn()
        var headers: HTTPHeaders = ["Location": signIn.returnURL, "Cache-Control": "no-store"]
        headers.add("Set-Cookie", configuration.cookie.setting(record.id))
        headers.add("Set-Cookie", Self.clearingSignInCookie)
        return HTTPResponse(status: .found, headers: headers)
    }

    func user(_ request: HTTPRequest) async -> HTTPResponse {
        let session: Session
        switch await self.session(of: request) {
        case .none: return signInRequired(request)
        case .refused(let answer): return answer
        case .live(let live): session = live
        }
        var body = Array(#"{"claims":"#.utf8)
        body += Self.readableClaims(Array(session.record.claimsJSON.utf8))
        body += Array(#","logoutUrl":"#.utf8)
        JSONString.append(configuration.pathPrefix + "/logout", to: &body)
        let ends = min(
            session.record.lastSeenAt + configuration.lifetimes.idle, session.record.createdAt + configuration.lifetimes.absolute)
        body += Array(#","sessionExpiresIn":\#(Int(max(0, ends - now())))}"#.utf8)
        return .json(body, headers: ["Cache-Control": "no-store"])
    }

    func logout(_ request: HTTPRequest) async -> HTTPResponse {
        guard configuration.csrfHeader.isSatisfied(by: request.headers.values(named: configuration.csrfHeader.name)) else { return csrfRefused(request) }
        var record: SessionRecord?
        if let id = configuration.cookie.sessionID(in: request.headers.values(named: "Cookie")) {
            record = try? await store.remove(id)
        }
        let metadata = try? await provider.metadata()
        if let refreshToken = record?.refreshToken, let revocation = metadata?.revocationEndpoint {
            do {
                let answer = try await provider.post(.revocation(of: refreshToken), to: revocation, now: now(), describing: "revocation")
                if !answer.status.isSuccess { events.log(.warning, "logout: the revocation endpoint answered \(answer.status.code)") }
            } catch {
                events.log(.warning, "logout: \(error)")
            }
        }
        var location = configuration.postLogoutRedirectURI
        if let endSession = metadata?.endSessionEndpoint {
            // client_id, not id_token_hint: the answer is read by page scripts, and no token reaches them.
            location = endSession + (endSession.contains("?") ? "&" : "?") + "client_id=" + AuthorizationRequest.formEncoded(configuration.client.clientID)
                + "&post_logout_redirect_uri=" + AuthorizationRequest.formEncoded(configuration.postLogoutRedirectURI)
        }
        var body = Array(#"{"logoutUrl":"#.utf8)
        JSONString.append(location, to: &body)
        body.append(UInt8(ascii: "}"))
        return .json(body, headers: ["Cache-Control": "no-store", "Set-Cookie": configuration.cookie.clearing])
    }

    /// OpenID Connect Back-Channel Logout 1.0: the provider posts a signed logout token naming a
    /// user or one of its sessions, and every session it names ends here and, with a shared
    /// store, on every replica. Server to server: no cookie and no CSRF header are involved.
    func backChannelLogout(_ request: HTTPRequest) async -> HTTPResponse {
        func refuse(_ detail: String) -> HTTPResponse {
            events.log(.info, "back-channel logout: refused: \(detail)")
            return GatewayProblem(.badRequest, detail).response(instance: request.path, headers: ["Cache-Control": "no-store"])
        }
        guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
            let form = QueryParameters(decoding: String(decoding: request.body, as: UTF8.self)), let token = form["logout_token"]
        else { return refuse("the body must be a form with a logout_token") }
        let logout: LogoutTokenCheck.Logout
        do throws(LogoutTokenCheck.Refusal) {
            guard var keys = await provider.keys.current() else { return refuse("the provider's keys are not known yet") }
            if provider.logoutCheck.namesUnknownKey(token, keys: keys), let fresher = await provider.keys.refreshed() { keys = fresher }
            logout = try provider.logoutCheck.verify(token, keys: keys, now: now())
        } catch {
            return refuse(error.description)
        }
        let issuer = configuration.issuer
        do {
            // Recorded before the sessions end, so that two replicas given the same token do not both act on it.
            guard try await store.recordLogoutToken(logout.tokenID, issuer: issuer, expiresAt: logout.expiresAt, now: now()) else {
                return refuse("the logout token was used before")
            }
        } catch {
            events.log(.warning, "back-channel logout: \(error)")
            return GatewayProblem(.serviceUnavailable, "the session store cannot answer").response(instance: request.path, headers: ["Cache-Control": "no-store"])
        }
        do {
            let ended = try await store.removeAll(subject: logout.subject, providerSessionID: logout.providerSessionID)
            events.log(.info, "back-channel logout: \(ended) session\(ended == 1 ? "" : "s") ended")
            return HTTPResponse(status: .ok, headers: ["Cache-Control": "no-store"])
        } catch {
            events.log(.warning, "back-channel logout: \(error)")
            // The provider may send the same token again (§2.8): that retry is no replay.
            await store.forgetLogoutToken(logout.tokenID, issuer: issuer)
            return GatewayProblem(.serviceUnavailable, "the session store cannot answer").response(instance: request.path, headers: ["Cache-Control": "no-store"])
        }
    }

    // MARK: Sessions on API requests

    /// A live session: its record and who it proves.
    struct Session: Sendable {
        let record: SessionRecord
        let identity: Identity
    }

    /// What a request's session cookie amounts to.
    enum Lookup: Sendable {
        /// No session cookie.
        case none
        /// A cookie with a live session, and the CSRF header.
        case live(Session)
        /// 401 for a session that ended or never was (the cookie is cleared), 403 without the CSRF header.
        case refused(HTTPResponse)
    }

    /// The live session of `request`'s cookie. Every API request on a session must carry the CSRF
    /// header, safe methods included.
    func session(of request: HTTPRequest) async -> Lookup {
        let cookies = request.headers.values(named: "Cookie")
        guard configuration.cookie.isCarried(in: cookies) else { return .none }
        guard configuration.csrfHeader.isSatisfied(by: request.headers.values(named: configuration.csrfHeader.name)) else {
            return .refused(csrfRefused(request))
        }
        guard let id = configuration.cookie.sessionID(in: cookies) else { return .refused(sessionEnded(request)) }
        let found: SessionRecord?
        do {
            found = try await store.session(id, now: now())
        } catch {
            // A store that cannot answer (a shared one, down) has not ended the session: the cookie stays.
            events.log(.warning, "session: the store could not be read: \(error)")
            return .refused(GatewayProblem(.serviceUnavailable, "sessions cannot be read right now; try again later").response(instance: request.path))
        }
        guard let record = found,
              let identity = try? Identity(verifiedClaims: Array(record.claimsJSON.utf8), expiresAt: record.createdAt + configuration.lifetimes.absolute)
        else { return .refused(sessionEnded(request)) }
        return .live(Session(record: record, identity: identity))
    }

    /// The session's access token, refreshed first when it expires within the skew: one refresh per
    /// session however many requests ask at once (`SessionStore.withRefreshLock`; each waiter re-reads the
    /// session and finds the new token). A refresh the provider refuses ends the session (401).
    func accessToken(of session: Session, request: HTTPRequest) async -> Result<String, GatewayProblemAnswer> {
        let skew = configuration.refreshSkew.seconds
        guard let expiresAt = session.record.accessTokenExpiresAt, expiresAt - skew <= now() else { return .success(session.record.accessToken) }
        guard session.record.refreshToken != nil else {
            if expiresAt > now() { return .success(session.record.accessToken) }
            _ = try? await store.remove(session.record.id)
            return .failure(GatewayProblemAnswer(sessionEnded(request)))
        }
        let id = session.record.id
        do {
            return .success(try await store.withRefreshLock(id) { [self] () async throws -> String in
                let now = self.now()
                guard let current = try await store.session(id, now: now) else { throw RefreshRefused.ended }
                if let expiresAt = current.accessTokenExpiresAt, expiresAt - skew > now { return current.accessToken }
                guard let refreshToken = current.refreshToken else { throw RefreshRefused.ended }
                let tokens: TokenEndpoint.Tokens
                do {
                    tokens = try await provider.tokens(.refresh(refreshToken), now: now)
                } catch let error as TokenEndpoint.Failure {
                    metrics.recordRefresh(succeeded: false)
                    events.log(.info, "session: refresh refused, session ended: \(error)")
                    throw RefreshRefused.refused
                }
                metrics.recordRefresh(succeeded: true)
                var updated = current
                updated.accessToken = tokens.accessToken
                updated.accessTokenExpiresAt = tokens.expiresIn.map { now + $0 }
                // A provider that rotates refresh tokens sends a new one; one that does not keeps the old valid.
                updated.refreshToken = tokens.refreshToken ?? refreshToken
                guard try await store.update(updated) else { throw RefreshRefused.ended }
                return tokens.accessToken
            })
        } catch let refusal as RefreshRefused {
            if refusal == .refused { _ = try? await store.remove(id) }
            return .failure(GatewayProblemAnswer(sessionEnded(request)))
        } catch {
            events.log(.warning, "session: refresh failed: \(error)")
            return .failure(GatewayProblemAnswer(
                GatewayProblem(.badGateway, "the user's token could not be refreshed at the OpenID provider; try again later").response(instance: request.path)))
        }
    }

    private enum RefreshRefused: Error, Equatable {
        /// The provider refused the refresh token: the session ends.
        case refused
        /// The session ended meanwhile.
        case ended
    }

    /// 401 for a request that needs a signed-in session and has none.
    func signInRequired(_ request: HTTPRequest) -> HTTPResponse {
        GatewayProblem(.unauthorized, "this route needs a signed-in session; sign in at \(configuration.pathPrefix)/login").response(instance: request.path)
    }

    /// 401 for a session cookie whose session ended or never existed; the cookie is cleared.
    private func sessionEnded(_ request: HTTPRequest) -> HTTPResponse {
        GatewayProblem(.unauthorized, "the session has ended; sign in again at \(configuration.pathPrefix)/login")
            .response(instance: request.path, headers: ["Set-Cookie": configuration.cookie.clearing])
    }

    private func csrfRefused(_ request: HTTPRequest) -> HTTPResponse {
        let header = configuration.csrfHeader
        return GatewayProblem(.forbidden, "requests on a session must carry the header \(header.name): \(header.value)").response(instance: request.path)
    }

    // MARK: Helpers

    /// The pending sign-in of a callback with `state` from a browser whose sign-in cookie holds
    /// `cookie`: opened from the cookie when sign-ins are sealed, else taken from this replica's
    /// table (once). Nil unless the callback's `state` is the sign-in's.
    private func pendingSignIn(state: String, cookie: String) -> PendingSignIn? {
        if let sealer = configuration.sealer {
            guard let signIn = try? sealer.openCookie(cookie), PendingSignIn.constantTimeEqual(state, signIn.state) else { return nil }
            return signIn
        }
        guard PendingSignIn.constantTimeEqual(state, cookie) else { return nil }
        return pending.withLock { $0.take(state) }
    }

    private func verify(_ idToken: String, nonce: String, now: Double) async throws(IDTokenCheck.Refusal) -> Identity {
        guard var keys = await provider.keys.current() else { throw .token(.unknownKey) }
        if provider.check.namesUnknownKey(idToken, keys: keys), let fresher = await provider.keys.refreshed() { keys = fresher }
        return try provider.check.verify(idToken, keys: keys, nonce: nonce, now: now)
    }

    private static var clearingSignInCookie: String { "\(signInCookieName)=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0" }

    private static func parameters(_ query: QueryParameters) -> [String: String] {
        var parameters: [String: String] = [:]
        for name in ["state", "code", "error"] { parameters[name] = query[name] }
        return parameters
    }

    /// The ID token's claims but those of the protocol only (`nonce`, `at_hash`, `c_hash`), as a JSON object.
    static func readableClaims(_ claims: [UInt8]) -> [UInt8] {
        let hidden: Set<String> = ["nonce", "at_hash", "c_hash"]
        return (try? JSONReader.read(claims) { document -> [UInt8] in
            var output = [UInt8(ascii: "{")]
            for (key, value) in document.members(of: document.root) where !hidden.contains(key) {
                if output.count > 1 { output.append(UInt8(ascii: ",")) }
                JSONString.append(key, to: &output)
                output.append(UInt8(ascii: ":"))
                document.writeJSON(value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
            return output
        }) ?? Array("{}".utf8)
    }
}

/// An answer that refuses a request, as an error (a `Result`'s failure).
struct GatewayProblemAnswer: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
