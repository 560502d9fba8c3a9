import CallerIdentity
import Foundation
import HTTP1Server
import HTTPBasics

/// Checks the bearer token of a request to a route that requires one: the identity it proves, or
/// the 401 (403 when it lacks a scope the route requires, 503 when there are no keys to check
/// with) to answer instead.
///
/// The token is never logged nor echoed: problem details and `WWW-Authenticate` name the reason only.
final class Authenticator: Sendable {
    let verifier: TokenVerifier
    let keys: KeySetStore
    let metrics: AuthenticationMetrics
    private let verified: VerifiedTokens
    /// The time tokens are checked at, in seconds since 1970.
    private let now: @Sendable () -> Double

    init(verifier: TokenVerifier, keys: KeySetStore, verified: VerifiedTokens, metrics: AuthenticationMetrics,
         now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.verifier = verifier
        self.keys = keys
        self.verified = verified
        self.metrics = metrics
        self.now = now
    }

    /// The identity `request`'s token proves when it grants every one of `scopes`, or the answer
    /// that refuses the request.
    func identify(_ request: HTTPRequest, requiring scopes: [String] = []) async -> Result<Identity, AuthenticationRefusal> {
        let identified = await verifiedIdentity(of: request)
        guard case .success(let identity) = identified, !scopes.allSatisfy(identity.scopes.contains) else { return identified }
        metrics.record(AuthenticationRefusal.insufficientScope)
        return .failure(AuthenticationRefusal(lacking: scopes, realm: verifier.audience, instance: request.path))
    }

    private func verifiedIdentity(of request: HTTPRequest) async -> Result<Identity, AuthenticationRefusal> {
        guard let token = Self.bearerToken(in: request.headers) else { return refuse(.missing, request) }
        guard token.utf8.count <= verifier.maximumBytes else { return refuse(.tooLarge, request) }
        let now = self.now()
        if let identity = verified.identity(of: token, at: now) { return .success(identity) }
        guard var keys = await keys.current() else {
            metrics.record("keys_unavailable")
            return .failure(AuthenticationRefusal(
                problem: GatewayProblem(.serviceUnavailable, "the gateway has no keys to check tokens with yet; try again later"),
                challenge: nil, instance: request.path))
        }
        if verifier.namesUnknownKey(token, keys: keys), let fresher = await self.keys.refreshed(forUnknownKeyAt: .now) {
            keys = fresher
        }
        do throws(TokenRejection) {
            let identity = try verifier.verify(token, keys: keys, now: now)
            verified.keep(identity, for: token, acceptedUntil: verifier.acceptedUntil(identity))
            return .success(identity)
        } catch {
            return refuse(error, request)
        }
    }

    private func refuse(_ rejection: TokenRejection, _ request: HTTPRequest) -> Result<Identity, AuthenticationRefusal> {
        metrics.record(rejection.reason)
        return .failure(AuthenticationRefusal(rejection: rejection, realm: verifier.audience, instance: request.path))
    }

    /// The token of the first `Authorization` field when its scheme is `Bearer` (any case, RFC
    /// 7235 §2.1); nil when there is none or it is empty.
    static func bearerToken(in headers: HTTPHeaders) -> Substring? {
        guard let value = headers["Authorization"] else { return nil }
        let scheme = "Bearer "
        guard value.utf8.count > scheme.utf8.count, value.prefix(scheme.count).equalsIgnoringASCIICase(scheme) else { return nil }
        let token = value.dropFirst(scheme.count).trimmingWhitespace
        return token.isEmpty ? nil : Substring(token)
    }
}
