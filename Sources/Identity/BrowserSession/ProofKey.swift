import COpenSSL

/// Random secrets of the sign-in (session ids, `state`, `nonce`) and the PKCE proof key (RFC 7636).
public enum ProofKey {
    /// 32 bytes from the system's CSPRNG (`SystemRandomNumberGenerator`: `getrandom(2)` on Linux) in
    /// unpadded base64url: 43 characters, also a valid PKCE verifier.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The S256 `code_challenge` of `verifier`: base64url(SHA-256(verifier)).
    public static func challenge(of verifier: String) -> String {
        base64URL(sha256(Array(verifier.utf8)))
    }

    /// The SHA-256 digest of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // SHA-256 over memory cannot fail but for a broken OpenSSL, which fails TLS first.
        _ = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
        return Array(digest.prefix(Int(length)))
    }

    /// Unpadded base64url (RFC 4648 §5).
    static func base64URL<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = accumulator << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int(accumulator >> UInt32(bits) & 63)])
            }
        }
        if bits > 0 { output.append(alphabet[Int(accumulator << UInt32(6 - bits) & 63)]) }
        return String(decoding: output, as: UTF8.self)
    }
}
