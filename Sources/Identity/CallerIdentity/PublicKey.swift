import COpenSSL

/// A public key built from a JWK's parameters through OpenSSL 3 (`EVP_PKEY_fromdata`), and the
/// one algorithm it verifies signatures of.
///
/// A class, so the key is freed once, when the last key set holding it goes away.
// @unchecked Sendable: `key` is never mutated after init, and OpenSSL 3 allows one EVP_PKEY to be
// used for verification by many threads at once (each `verify` makes its own EVP_MD_CTX).
final class PublicKey: @unchecked Sendable {
    let algorithm: SignatureAlgorithm
    private let key: OpaquePointer

    /// Why a JWK's parameters make no key; a fixed phrase.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// RSA: the modulus `n` and exponent `e`, big-endian, for RS256; at least 2048 bits (RFC 7518
    /// §3.3), and passing OpenSSL's public key check (SP 800-56B: an odd `n`, an odd `e` of at
    /// least 65537, so no `e` of 1 makes every signature its own message).
    init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws(Invalid) {
        let key = try Self.make("RSA", [.integer("n", modulus), .integer("e", exponent)])
        guard EVP_PKEY_get_bits(key) >= 2048 else {
            EVP_PKEY_free(key)
            throw Invalid(description: "an RSA key must have at least 2048 bits")
        }
        try Self.checkPublic(key, "the RSA key fails OpenSSL's public key check")
        // Stored only once checked: a throw after that would run deinit, which frees it again.
        algorithm = .rs256
        self.key = key
    }

    /// EC P-256: the point's coordinates `x` and `y`, 32 bytes each, for ES256; checked to be on the curve.
    init(p256X x: [UInt8], y: [UInt8]) throws(Invalid) {
        guard x.count == 32, y.count == 32 else { throw Invalid(description: "a P-256 key needs 32-byte x and y") }
        let key = try Self.make("EC", [.text("group", "P-256"), .octets("pub", [0x04] + x + y)])
        try Self.checkPublic(key, "the EC point is not on P-256")
        algorithm = .es256
        self.key = key
    }

    /// Ed25519: the 32-byte public key `x`, for EdDSA (RFC 8037).
    init(ed25519 x: [UInt8]) throws(Invalid) {
        guard x.count == 32 else { throw Invalid(description: "an Ed25519 key needs a 32-byte x") }
        algorithm = .edDSA
        key = try Self.make("ED25519", [.octets("pub", x)])
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Whether `signature` (as JWS carries it) signs `message` under this key.
    func verify(signature: [UInt8], of message: UnsafeRawBufferPointer) -> Bool {
        var signature = signature
        if algorithm == .es256 {
            guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
            signature = der
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        // Ed25519 hashes internally: a one-shot verify with no digest.
        let digest = algorithm == .edDSA ? nil : EVP_sha256()
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let verified = signature.withUnsafeBufferPointer { signatureBytes in
            EVP_DigestVerify(
                context, signatureBytes.baseAddress, signatureBytes.count, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count)
        }
        if verified != 1 { ERR_clear_error() }
        return verified == 1
    }

    /// Runs OpenSSL's public key check on `key`; frees it and throws `problem` when it fails.
    private static func checkPublic(_ key: OpaquePointer, _ problem: String) throws(Invalid) {
        let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil)
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw Invalid(description: problem)
        }
    }

    /// One parameter of a key, named as OpenSSL's `OSSL_PKEY_PARAM_*`. The builder keeps pointers
    /// to names and values until it makes the parameters, hence static names and copied values.
    private enum Parameter {
        /// A big-endian unsigned integer.
        case integer(StaticString, [UInt8])
        case octets(StaticString, [UInt8])
        case text(StaticString, StaticString)
    }

    /// A public key of OpenSSL type `name` from `parameters`.
    private static func make(_ name: String, _ parameters: [Parameter]) throws(Invalid) -> OpaquePointer {
        let invalid = Invalid(description: "OpenSSL refuses the \(name) key's parameters")
        guard let builder = OSSL_PARAM_BLD_new() else { throw invalid }
        defer { OSSL_PARAM_BLD_free(builder) }
        var numbers: [OpaquePointer] = []
        var copies: [UnsafeMutableRawBufferPointer] = []
        defer {
            numbers.forEach(BN_free)
            copies.forEach { $0.deallocate() }
        }
        for parameter in parameters {
            let pushed: Int32
            switch parameter {
            case .integer(let key, let bytes):
                guard !bytes.isEmpty, let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw invalid }
                numbers.append(number)
                pushed = OSSL_PARAM_BLD_push_BN(builder, Self.cString(key), number)
            case .octets(let key, let bytes):
                let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
                copy.copyBytes(from: bytes)
                copies.append(copy)
                pushed = OSSL_PARAM_BLD_push_octet_string(builder, Self.cString(key), copy.baseAddress, copy.count)
            case .text(let key, let value):
                pushed = OSSL_PARAM_BLD_push_utf8_string(builder, Self.cString(key), Self.cString(value), value.utf8CodeUnitCount)
            }
            guard pushed == 1 else {
                ERR_clear_error()
                throw invalid
            }
        }
        guard let built = OSSL_PARAM_BLD_to_param(builder) else {
            ERR_clear_error()
            throw invalid
        }
        defer { OSSL_PARAM_free(built) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else { throw invalid }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, c_openssl_public_key_selection(), built) == 1, let key else {
            ERR_clear_error()
            throw invalid
        }
        return key
    }

    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
