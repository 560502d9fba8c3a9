import CallerIdentity
import HTTP1Server
import HTTPBasics

/// The answer to a request whose token was refused: 401 problem+json with the RFC 6750
/// challenge, 403 for a valid token without a scope the route requires, or 503 when the gateway
/// has no keys to check tokens with.
struct AuthenticationRefusal: Error {
    let problem: GatewayProblem
    /// The `WWW-Authenticate` value; nil for the gateway's own failure.
    let challenge: String?
    let instance: String

    init(problem: GatewayProblem, challenge: String?, instance: String) {
        self.problem = problem
        self.challenge = challenge
        self.instance = instance
    }

    /// Without a token the challenge names the realm only (RFC 6750 §3.1: no error code when the
    /// request has no authentication information); with one, `invalid_token` and the reason.
    init(rejection: TokenRejection, realm: String, instance: String) {
        problem = GatewayProblem(.unauthorized, rejection.description)
        challenge = rejection == .missing
            ? "Bearer realm=\"\(realm)\""
            : "Bearer realm=\"\(realm)\", error=\"invalid_token\", error_description=\"\(rejection.description)\""
        self.instance = instance
    }

    /// A valid token that lacks one of `scopes`: 403 with `insufficient_scope` and every scope
    /// the route requires (RFC 6750 §3.1), which the catalog check made scope tokens, safe to quote.
    init(lacking scopes: [String], realm: String, instance: String) {
        let required = scopes.joined(separator: " ")
        problem = GatewayProblem(.forbidden, "the token does not grant every scope this route requires: \(required)")
        challenge = "Bearer realm=\"\(realm)\", error=\"insufficient_scope\", scope=\"\(required)\""
        self.instance = instance
    }

    /// The metrics reason of a token without a required scope.
    static let insufficientScope = "insufficient_scope"

    var response: HTTPResponse {
        var headers = HTTPHeaders()
        if let challenge { headers.add("WWW-Authenticate", challenge) }
        return problem.response(instance: instance, headers: headers)
    }
}
