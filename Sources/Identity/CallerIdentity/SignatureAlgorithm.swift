/// The JWS algorithms the gateway accepts (RFC 7518 §3, RFC 8037): asymmetric signatures only.
///
/// The list is closed on purpose (RFC 8725 §3.1): `none` and the HMAC algorithms have no case, so
/// a token naming them is refused before any key is looked at, and a public key can never serve as
/// an HMAC secret.
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256; the signature is the raw 64-byte r‖s.
    case es256 = "ES256"
    /// Ed25519 (RFC 8037).
    case edDSA = "EdDSA"

    /// The JWK key type (`kty`) and curve (`crv`, nil for RSA) of the keys this algorithm verifies with.
    var keyType: (kty: String, crv: String?) {
        switch self {
        case .rs256: ("RSA", nil)
        case .es256: ("EC", "P-256")
        case .edDSA: ("OKP", "Ed25519")
        }
    }
}
