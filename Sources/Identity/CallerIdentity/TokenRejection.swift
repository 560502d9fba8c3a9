/// Why a bearer token was refused. The description names the reason and, at most, a claim or
/// header name from a fixed set; it never quotes the token or a value taken from it.
public enum TokenRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request has no `Authorization: Bearer` token.
    case missing
    /// The token is longer than the verifier's bound.
    case tooLarge
    /// Not three base64url parts, or a header or claims set that is not a JSON object of the
    /// expected members; `part` says which.
    case malformed(_ part: String)
    /// `alg` is not one of RS256, ES256, EdDSA (`none` and HMACs included), or the header asks for
    /// an extension (`crit`) the gateway does not implement.
    case unsupportedAlgorithm
    /// No key of the set has the token's `kid` (or, without one, fits its algorithm).
    case unknownKey
    /// The signature does not verify with the key.
    case badSignature
    /// `exp` is past, beyond the leeway.
    case expired
    /// `nbf` is in the future, beyond the leeway.
    case notYetValid
    /// `iss` is not the configured issuer.
    case wrongIssuer
    /// `aud` does not contain the configured audience.
    case wrongAudience

    /// A short, stable name for metrics labels and logs.
    public var reason: String {
        switch self {
        case .missing: "missing"
        case .tooLarge: "too_large"
        case .malformed: "malformed"
        case .unsupportedAlgorithm: "unsupported_algorithm"
        case .unknownKey: "unknown_key"
        case .badSignature: "bad_signature"
        case .expired: "expired"
        case .notYetValid: "not_yet_valid"
        case .wrongIssuer: "wrong_issuer"
        case .wrongAudience: "wrong_audience"
        }
    }

    public var description: String {
        switch self {
        case .missing: "the request needs an Authorization: Bearer token"
        case .tooLarge: "the token is too large"
        case .malformed(let part): "the token is malformed: \(part)"
        case .unsupportedAlgorithm: "the token's algorithm is not accepted (RS256, ES256 or EdDSA)"
        case .unknownKey: "the token's key is not in the key set"
        case .badSignature: "the token's signature does not verify"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet"
        case .wrongIssuer: "the token's issuer is not accepted"
        case .wrongAudience: "the token is not meant for this audience"
        }
    }
}
