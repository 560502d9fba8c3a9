public import CallerIdentity
import UpstreamKit

/// Verifies the ID token of a sign-in as OpenID Connect Core §3.1.3.7 asks: signature with the
/// provider's keys, `iss` equal to the issuer, `aud` containing this client, `exp` not past (all by
/// `TokenVerifier`), then `iat` present and not in the future, `nonce` equal to the sign-in's, and
/// `azp` equal to this client when the token names several audiences.
public struct IDTokenCheck: Sendable {
    /// Why an ID token was refused; names the check, never a claim's value.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Signature, issuer, audience or lifetime, as `TokenVerifier` judged.
        case token(TokenRejection)
        /// No `iat`, or one later than now beyond the leeway.
        case issuedAt
        /// `nonce` absent or not the one this sign-in sent.
        case nonce
        /// Several audiences and `azp` is not this client.
        case authorizedParty
        /// No `sub`.
        case subject

        public var description: String {
            switch self {
            case .token(let rejection): "the ID token was refused: \(rejection)"
            case .issuedAt: "the ID token has no iat, or one in the future"
            case .nonce: "the ID token's nonce is not the one this sign-in sent"
            case .authorizedParty: "the ID token names several audiences and its azp is not this client"
            case .subject: "the ID token has no sub"
            }
        }
    }

    let verifier: TokenVerifier

    /// Checks for ID tokens of `issuer` to `clientID`, with `leeway` for clocks that disagree.
    public init(issuer: String, clientID: String, leeway: Duration = .seconds(60)) {
        verifier = TokenVerifier(issuer: issuer, audience: clientID, leeway: leeway, maximumBytes: 16 << 10)
    }

    /// The identity `idToken` proves at `now`, for the sign-in that sent `nonce`.
    public func verify(_ idToken: String, keys: JSONWebKeySet, nonce: String, now: Double) throws(Refusal) -> Identity {
        let identity: Identity
        do {
            identity = try verifier.verify(idToken, keys: keys, now: now)
        } catch {
            throw .token(error)
        }
        guard identity.subject != nil else { throw .subject }
        guard let issuedAt = identity.claim("iat").flatMap({ Double($0.text) }), issuedAt <= now + verifier.leeway.seconds else { throw .issuedAt }
        guard let sent = identity.claim("nonce"), PendingSignIn.constantTimeEqual(sent.text, nonce) else { throw .nonce }
        if identity.audience.count > 1, identity.claim("azp")?.text != verifier.audience { throw .authorizedParty }
        return identity
    }

    /// Whether `idToken` names a key `keys` lacks, so a fresher key set is worth fetching.
    public func namesUnknownKey(_ idToken: String, keys: JSONWebKeySet) -> Bool {
        verifier.namesUnknownKey(idToken, keys: keys)
    }
}
