import ClientIdentity
import HTTPServerCore

/// What a request passes before a combined endpoint or a proxy route answers it, in this order:
/// the caller's token with the scopes the route requires, then the caller's rate limit (keyed by
/// the verified subject, else the client address). One place for both kinds of route.
struct RouteAdmission: Sendable {
    /// Checks the token; nil when the route requires none.
    let authenticator: Authenticator?
    /// Scopes the token must grant.
    let scopes: [String]
    /// Counts the caller's requests; nil when the route has no limit.
    let rateLimiter: RouteRateLimiter?

    /// What the checks decided of one request.
    enum Decision {
        /// Admitted, with the verified identity (nil when the route checks no token).
        case admitted(Identity?)
        /// Refused with this answer: 401, 403 or 503 for the token, 429 for the limit.
        case refused(HTTPResponse)
    }

    /// What the checks decide of `request`; a rate limit's fields go to `scope`, for the answer.
    func decide(_ request: HTTPRequest, scope: RequestScope) async -> Decision {
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
}
