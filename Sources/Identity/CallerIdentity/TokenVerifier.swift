/// Verifies bearer tokens against a key set: what is checked, in this order, each failure its
/// own `TokenRejection`:
///
/// 1. size: at most `maximumBytes`, before anything is decoded;
/// 2. form: three base64url parts, a JSON header with `alg`, no `crit`;
/// 3. algorithm: RS256, ES256 or EdDSA, never `none` or an HMAC;
/// 4. key: the set's key with the token's `kid` (without one, the keys of the algorithm's type),
///    whose type and curve match `alg`;
/// 5. signature, through OpenSSL;
/// 6. claims, only now read: a JSON object; `exp` required and not past, `nbf` not future,
///    both with `leeway`; `iss` equal to `issuer`; `aud`, a string or an array, containing `audience`.
///
/// Pure but for OpenSSL's arithmetic: the time is an argument.
public struct TokenVerifier: Sendable {
    /// The `iss` every token must have.
    public let issuer: String
    /// The audience every token's `aud` must contain.
    public let audience: String
    /// How far `exp` and `nbf` may be off, for clocks that disagree.
    public let leeway: Duration
    /// The longest token read.
    public let maximumBytes: Int

    public init(issuer: String, audience: String, leeway: Duration = .seconds(60), maximumBytes: Int = 8192) {
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        self.maximumBytes = maximumBytes
    }

    /// The identity `token` proves at `now` (seconds since 1970), or why it proves none.
    public func verify(_ token: some StringProtocol, keys: JSONWebKeySet, now: Double) throws(TokenRejection) -> Identity {
        guard token.utf8.count <= maximumBytes else { throw .tooLarge }
        let bytes = Array(token.utf8)
        let parsed = try CompactToken(parsing: bytes)
        let candidates = keys.candidates(for: parsed.algorithm, keyID: parsed.keyID)
        guard !candidates.isEmpty else { throw .unknownKey }
        let signed = parsed.signingInput.withUnsafeBytes { message in
            candidates.contains { $0.verify(signature: parsed.signature, of: message) }
        }
        guard signed else { throw .badSignature }
        let claims = try Identity.Claims(parsing: parsed.claims)
        guard let expiresAt = claims.expiresAt else { throw .malformed("the claims have no exp") }
        guard now < expiresAt + leewaySeconds else { throw .expired }
        if let notBefore = claims.notBefore, now + leewaySeconds < notBefore { throw .notYetValid }
        guard claims.issuer == issuer else { throw .wrongIssuer }
        guard claims.audience.contains(audience) else { throw .wrongAudience }
        return Identity(
            subject: claims.subject, issuer: issuer, audience: claims.audience, scopes: claims.scopes, expiresAt: expiresAt,
            claimsJSON: parsed.claims)
    }

    /// The time (seconds since 1970) until which `identity`'s token passes the `exp` check.
    public func acceptedUntil(_ identity: Identity) -> Double {
        identity.expiresAt + leewaySeconds
    }

    private var leewaySeconds: Double {
        Double(leeway.components.seconds) + Double(leeway.components.attoseconds) / 1e18
    }

    /// Whether `token` names a key the set lacks: a `kid` absent from it, which a fresher set
    /// may have (key rotation). False for tokens that fail before a key is looked at.
    public func namesUnknownKey(_ token: some StringProtocol, keys: JSONWebKeySet) -> Bool {
        guard token.utf8.count <= maximumBytes, let parsed = try? CompactToken(parsing: Array(token.utf8)), let keyID = parsed.keyID else {
            return false
        }
        return !keys.contains(keyID: keyID)
    }
}
