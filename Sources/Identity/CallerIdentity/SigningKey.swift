import COpenSSL

/// A private key read from PEM through OpenSSL 3, and the JWS algorithm its type signs with: RS256
/// for RSA of at least 2048 bits, PS256 for an RSA-PSS key (OpenSSL's `RSA-PSS` type), ES256 for EC
/// P-256 (RFC 7518 §3.3 to §3.5). What a client signs its `private_key_jwt` assertion with (RFC 7523,
/// OpenID Connect Core §9).
///
/// A class, so the key is freed once, when the last holder goes away.
// @unchecked Sendable: `key` is never mutated after init, and OpenSSL 3 allows one EVP_PKEY to sign
// from many threads at once (each `sign` makes its own EVP_MD_CTX).
package final class SigningKey: @unchecked Sendable {
    /// The JWS algorithms a client key signs with. Signing only: what the gateway accepts from
    /// others is `SignatureAlgorithm`'s closed list.
    package enum Algorithm: String, Sendable {
        case rs256 = "RS256"
        case ps256 = "PS256"
        case es256 = "ES256"
    }

    package let algorithm: Algorithm
    private let key: OpaquePointer

    /// Why PEM text makes no signing key; a fixed phrase that never quotes the key.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// The key of `pem`, an unencrypted PEM private key (PKCS #8, or the traditional RSA and EC forms).
    package init(pem: [UInt8]) throws(Invalid) {
        // BIO_new_mem_buf reads the bytes in place, so the BIO lives and dies inside the closure
        // that lends the pointer.
        let read = pem.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            // A passphrase callback that gives none: an encrypted key fails instead of prompting on the terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        ERR_clear_error()
        guard let read else { throw Invalid(description: "is not an unencrypted PEM private key") }
        let algorithm: Algorithm
        if EVP_PKEY_is_a(read, "RSA") == 1, EVP_PKEY_get_bits(read) >= 2048 {
            algorithm = .rs256
        } else if EVP_PKEY_is_a(read, "RSA-PSS") == 1, EVP_PKEY_get_bits(read) >= 2048 {
            algorithm = .ps256
        } else if EVP_PKEY_is_a(read, "EC") == 1, Self.group(of: read) == "prime256v1" {
            algorithm = .es256
        } else {
            EVP_PKEY_free(read)
            throw Invalid(description: "must be an RSA or RSA-PSS key of at least 2048 bits (RS256, PS256) or an EC P-256 key (ES256)")
        }
        // A trial signature: an RSA-PSS key restricted to another digest or salt fails here, not at the first sign-in.
        guard Self.signature(of: [], with: read, algorithm) != nil else {
            EVP_PKEY_free(read)
            throw Invalid(description: "is an RSA-PSS key restricted to parameters other than PS256's (SHA-256, 32-byte salt)")
        }
        self.algorithm = algorithm
        key = read
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The signature of `message` as JWS carries it: PKCS #1 v1.5 for RS256, PSS (SHA-256 and its
    /// MGF1, a 32-byte salt) for PS256, the raw 64-byte r‖s for ES256.
    package func sign(_ message: [UInt8]) -> [UInt8] {
        // The key signed once at init with these parameters; failing now means OpenSSL itself is broken.
        guard let signature = Self.signature(of: message, with: key, algorithm) else { fatalError("OpenSSL cannot sign with a key it signed with before") }
        return signature
    }

    private static func signature(of message: [UInt8], with key: OpaquePointer, _ algorithm: Algorithm) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        var parameters: OpaquePointer?
        var length = 0
        guard EVP_DigestSignInit(context, &parameters, EVP_sha256(), nil, key) == 1,
              algorithm != .ps256
                || (EVP_PKEY_CTX_set_rsa_padding(parameters, RSA_PKCS1_PSS_PADDING) == 1 && EVP_PKEY_CTX_set_rsa_pss_saltlen(parameters, 32) == 1),
              EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else {
            ERR_clear_error()
            return nil
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            ERR_clear_error()
            return nil
        }
        signature.removeLast(signature.count - length)
        return algorithm == .es256 ? ECDSASignature.raw(fromDER: signature) : signature
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
