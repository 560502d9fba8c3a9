import COpenSSL

/// Digests through OpenSSL, in lower-case hexadecimal where they name something: SHA-1 names a
/// script for `EVALSHA`, SHA-256 turns a key that holds secrets into a key name that does not (and,
/// as bytes, a secret into what an entry may hold in its place).
public enum HexDigest {
    /// SHA-256 fetched from OpenSSL's provider once: `EVP_sha256()` would make every digest look
    /// the algorithm up again by name, which costs more than hashing a key.
    /// `nonisolated(unsafe)`: an `EVP_MD` is immutable once fetched, and OpenSSL allows one to be
    /// used by many threads at once; it is never freed.
    private nonisolated(unsafe) static let fetchedSHA256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// The SHA-1 of `bytes`, as `EVALSHA` names a script.
    public static func sha1(_ bytes: [UInt8]) -> String {
        digest(bytes, EVP_sha1())
    }

    /// The SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> String {
        digest(bytes, fetchedSHA256 ?? EVP_sha256())
    }

    /// The SHA-256 of `bytes` as its 32 bytes, where no one reads it.
    public static func sha256Bytes(_ bytes: [UInt8]) -> [UInt8] {
        binaryDigest(bytes, fetchedSHA256 ?? EVP_sha256())
    }

    private static func digest(_ bytes: [UInt8], _ algorithm: OpaquePointer?) -> String {
        let output = binaryDigest(bytes, algorithm)
        return String(unsafeUninitializedCapacity: output.count * 2) { text in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in output.enumerated() {
                text[2 * index] = digits.utf8Start[Int(byte >> 4)]
                text[2 * index + 1] = digits.utf8Start[Int(byte & 15)]
            }
            return output.count * 2
        }
    }

    private static func binaryDigest(_ bytes: [UInt8], _ algorithm: OpaquePointer?) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let succeeded = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, algorithm, nil) == 1
        }
        // EVP_Digest fails only without memory or with a disabled algorithm, neither recoverable.
        precondition(succeeded, "OpenSSL cannot compute a digest")
        return Array(output.prefix(Int(length)))
    }
}
