import CallerIdentity
import HTTP1Server
import HTTPBasics

/// What a request passes before a combined endpoint or a proxy route answers it, in this order:
/// the caller's session (its CSRF header, and the user's token refreshed when the route's upstreams
/// take it) or else its bearer token, with the scopes the route requires, then the caller's rate
/// limit (keyed by the verified subject, else the client address). One place for both kinds of route.
struct RouteAdmission: Sendable {
    /// Checks the token; nil when the route requires none.
    let authenticator: Authenticator?
    /// Scopes the token must grant.
    let scopes: [String]
    /// Counts the caller's requests; nil when the route has no limit.
    let rateLimiter: RouteRateLimiter?
    /// Finds the caller's browser session; nil when browsers do not sign in or the route asks for no one.
    var signIn: BrowserSignIn? = nil
    /// Whether an upstream of the route takes the user's access token: then only a session will do.
    var needsUserToken = false

    /// What the checks decided of one request.
    enum Decision {
        /// Admitted, with the verified identity (nil when the route checks no token).
        case admitted(Identity?)
        /// Admitted on a browser session: who it proves, and the user's access token when the route's upstreams take it.
        case signedIn(Identity, userAccessToken: String?)
        /// Refused with this answer: 401, 403 or 503 for the token or session, 429 for the limit.
        case refused(HTTPResponse)
    }

    /// What the checks decide of `request`; a rate limit's fields go to `scope`, for the answer.
    func decide(_ request: HTTPRequest, scope: RequestScope) async -> Decision {
        if let signIn {
            switch await signIn.session(of: request) {
            case .live(let session): return await admit(session, of: signIn, request, scope: scope)
            case .refused(let answer): return .refused(answer)
            case .none: if authenticator == nil || needsUserToken { return .refused(signIn.signInRequired(request)) }
            }
        }
        var identity: Identity?
        if let authenticator {
            switch await authenticator.identify(request, requiring: scopes) {
            case .success(let verified): identity = verified
            case .failure(let refusal): return .refused(refusal.response)
            }
        }
        if let rateLimiter, let refusal = await rateLimiter.admit(request, identity: identity, scope: scope) { return .refused(refusal) }
        return .admitted(identity)
    }

    /// Never inlined: requests without a session keep a frame without it.
    @inline(never)
    private func admit(_ session: BrowserSignIn.Session, of signIn: BrowserSignIn, _ request: HTTPRequest, scope: RequestScope) async -> Decision {
        guard scopes.allSatisfy(session.identity.scopes.contains) else {
            return .refused(GatewayProblem(.forbidden, "the session does not grant every scope this route requires: \(scopes.joined(separator: " "))")
                .response(instance: request.path))
        }
        if let rateLimiter, let refusal = await rateLimiter.admit(request, identity: session.identity, scope: scope) { return .refused(refusal) }
        guard needsUserToken else { return .signedIn(session.identity, userAccessToken: nil) }
        switch await signIn.accessToken(of: session, request: request) {
        case .success(let token): return .signedIn(session.identity, userAccessToken: token)
        case .failure(let refusal): return .refused(refusal.response)
        }
    }
}
