import COpenSSL

/// A private key read from PEM through OpenSSL 3, and the JWS algorithm its type signs with: RS256
/// for RSA of at least 2048 bits, ES256 for EC P-256 (RFC 7518 §3.3, §3.4). What a client signs its
/// `private_key_jwt` assertion with (RFC 7523, OpenID Connect Core §9).
///
/// A class, so the key is freed once, when the last holder goes away.
// @unchecked Sendable: `key` is never mutated after init, and OpenSSL 3 allows one EVP_PKEY to sign
// from many threads at once (each `sign` makes its own EVP_MD_CTX).
package final class SigningKey: @unchecked Sendable {
    /// RS256 or ES256.
    package let algorithm: SignatureAlgorithm
    private let key: OpaquePointer

    /// Why PEM text makes no signing key; a fixed phrase that never quotes the key.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// The key of `pem`, an unencrypted PEM private key (PKCS #8, or the traditional RSA and EC forms).
    package init(pem: [UInt8]) throws(Invalid) {
        guard let bio = pem.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
            throw Invalid(description: "cannot be read")
        }
        // BIO_new_mem_buf reads the bytes in place: they must outlive the BIO, hence reading inside `withExtendedLifetime`.
        let read = withExtendedLifetime(pem) {
            // A passphrase callback that gives none: an encrypted key fails instead of prompting on the terminal.
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        BIO_free(bio)
        ERR_clear_error()
        guard let read else { throw Invalid(description: "is not an unencrypted PEM private key") }
        if EVP_PKEY_is_a(read, "RSA") == 1, EVP_PKEY_get_bits(read) >= 2048 {
            algorithm = .rs256
        } else if EVP_PKEY_is_a(read, "EC") == 1, Self.group(of: read) == "prime256v1" {
            algorithm = .es256
        } else {
            EVP_PKEY_free(read)
            throw Invalid(description: "must be an RSA key of at least 2048 bits (RS256) or an EC P-256 key (ES256)")
        }
        key = read
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The signature of `message` as JWS carries it: PKCS #1 v1.5 for RS256, the raw 64-byte r‖s for ES256.
    package func sign(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        // A key OpenSSL read and typed signs SHA-256 digests; failing here means OpenSSL itself is broken.
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1, EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { fatalError("OpenSSL cannot sign with a key it read") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { fatalError("OpenSSL cannot sign with a key it read") }
        signature.removeLast(signature.count - length)
        guard algorithm == .es256 else { return signature }
        guard let raw = ECDSASignature.raw(fromDER: signature) else { fatalError("OpenSSL made an ECDSA signature that is not DER") }
        return raw
    }

    /// The EC key's curve as OpenSSL names it (`prime256v1` for P-256), nil when it has none.
    private static func group(of key: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(key, "group", &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
