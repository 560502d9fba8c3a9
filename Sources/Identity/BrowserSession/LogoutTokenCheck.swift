public import CallerIdentity
import JSONCoding
import UpstreamKit

/// Verifies a back-channel logout token as OpenID Connect Back-Channel Logout 1.0 §2.6 asks:
/// signature with the provider's keys, `iss`, `aud` containing this client and `exp` (all by
/// `TokenVerifier`), then `iat`, a `jti`, an `events` object with the back-channel logout event,
/// a `sub` or a `sid`, and no `nonce` (so that an ID token cannot pass for a logout token).
public struct LogoutTokenCheck: Sendable {
    /// Which sessions the provider ended: its user's, or one of its sessions, or that session of that user.
    public struct Logout: Sendable, Equatable {
        /// `sub`, when the token names the user.
        public let subject: String?
        /// `sid`, when the token names the provider's session.
        public let providerSessionID: String?
        /// The token's `jti`, which is remembered until `expiresAt` so that a replay is refused (§2.6, step 7 note).
        public let tokenID: String
        /// The token's `exp`, in seconds since 1970.
        public let expiresAt: Double

        /// The sessions of `subject`, or of `providerSessionID`, or both when both are given, by the token `tokenID` valid until `expiresAt`.
        public init(subject: String?, providerSessionID: String?, tokenID: String, expiresAt: Double) {
            self.subject = subject
            self.providerSessionID = providerSessionID
            self.tokenID = tokenID
            self.expiresAt = expiresAt
        }
    }

    /// Why a logout token was refused; names the check, never a claim's value.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Signature, issuer, audience or lifetime, as `TokenVerifier` judged.
        case token(TokenRejection)
        /// No `iat`, or one later than now beyond the leeway.
        case issuedAt
        /// No `jti`.
        case identifier
        /// No `events` object holding the back-channel logout event.
        case event
        /// Neither `sub` nor `sid`.
        case subjectOrSession
        /// A `nonce`: an ID token, not a logout token.
        case nonce

        public var description: String {
            switch self {
            case .token(let rejection): "the logout token was refused: \(rejection)"
            case .issuedAt: "the logout token has no iat, or one in the future"
            case .identifier: "the logout token has no jti"
            case .event: "the logout token's events do not hold \(LogoutTokenCheck.event)"
            case .subjectOrSession: "the logout token names neither sub nor sid"
            case .nonce: "the logout token has a nonce"
            }
        }
    }

    /// The event member a logout token's `events` must hold, with an object as its value.
    public static let event = "http://schemas.openid.net/event/backchannel-logout"

    let verifier: TokenVerifier

    /// Checks for logout tokens of `issuer` to `clientID`, with `leeway` for clocks that disagree.
    public init(issuer: String, clientID: String, leeway: Duration = .seconds(60)) {
        verifier = TokenVerifier(issuer: issuer, audience: clientID, leeway: leeway, maximumBytes: 16 << 10)
    }

    /// The sessions `token` ends, when it is a valid logout token at `now`.
    public func verify(_ token: String, keys: JSONWebKeySet, now: Double) throws(Refusal) -> Logout {
        let identity: Identity
        do {
            identity = try verifier.verify(token, keys: keys, now: now)
        } catch {
            throw .token(error)
        }
        guard let issuedAt = identity.claim("iat").flatMap({ Double($0.text) }), issuedAt <= now + verifier.leeway.seconds else { throw .issuedAt }
        guard let tokenID = identity.claim("jti")?.text, !tokenID.isEmpty else { throw .identifier }
        guard let events = identity.claim("events"), Self.holdsLogoutEvent(events.json) else { throw .event }
        guard identity.claim("nonce") == nil else { throw .nonce }
        let session = identity.claim("sid")?.text
        guard identity.subject != nil || session != nil else { throw .subjectOrSession }
        return Logout(subject: identity.subject, providerSessionID: session, tokenID: tokenID, expiresAt: identity.expiresAt)
    }

    /// Whether `token` names a key `keys` lacks, so a fresher key set is worth fetching.
    public func namesUnknownKey(_ token: String, keys: JSONWebKeySet) -> Bool {
        verifier.namesUnknownKey(token, keys: keys)
    }

    /// Whether `json` is an object whose back-channel logout member is an object.
    private static func holdsLogoutEvent(_ json: [UInt8]) -> Bool {
        (try? JSONReader.read(json, maximumDepth: 8) { document -> Bool in
            guard document.kind(of: document.root) == .object, let value = document.member(event, of: document.root) else { return false }
            return document.kind(of: value) == .object
        }) ?? false
    }
}
