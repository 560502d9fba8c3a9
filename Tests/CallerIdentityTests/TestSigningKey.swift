import COpenSSL
import Foundation
import Testing

@testable import CallerIdentity

/// A private key made by OpenSSL at test time, which signs tokens and describes its public half as a JWK.
final class TestSigningKey: @unchecked Sendable {
    // @unchecked Sendable: `key` is never mutated after init, and OpenSSL 3 allows concurrent signing
    // with one EVP_PKEY (each `sign` makes its own EVP_MD_CTX).
    let algorithm: SignatureAlgorithm
    let keyID: String
    private let key: OpaquePointer

    init(_ algorithm: SignatureAlgorithm, keyID: String) {
        self.algorithm = algorithm
        self.keyID = keyID
        let name = switch algorithm {
        case .rs256: "RSA"
        case .es256: "EC"
        case .edDSA: "ED25519"
        }
        let context = EVP_PKEY_CTX_new_from_name(nil, name, nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        precondition(EVP_PKEY_keygen_init(context) == 1)
        if algorithm == .es256 { precondition(EVP_PKEY_CTX_set_group_name(context, "P-256") == 1) }
        precondition(EVP_PKEY_generate(context, &key) == 1)
        self.key = key!
    }

    deinit { EVP_PKEY_free(key) }

    /// The public key as a JWK object.
    var jwk: String {
        switch algorithm {
        case .rs256:
            #"{"kty":"RSA","kid":"\#(keyID)","use":"sig","alg":"RS256","n":"\#(encode(number("n")))","e":"\#(encode(number("e")))"}"#
        case .es256:
            // "pub" is the uncompressed point 04‖x‖y.
            #"{"kty":"EC","kid":"\#(keyID)","crv":"P-256","x":"\#(encode(Array(octets("pub")[1..<33])))","y":"\#(encode(Array(octets("pub")[33..<65])))"}"#
        case .edDSA:
            #"{"kty":"OKP","kid":"\#(keyID)","crv":"Ed25519","x":"\#(encode(octets("pub")))"}"#
        }
    }

    /// The private key as unencrypted PKCS #8 PEM, as a client's key file holds it.
    var pem: [UInt8] {
        let bio = BIO_new(BIO_s_mem())
        defer { BIO_free(bio) }
        precondition(PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1)
        var pem = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        precondition(BIO_read(bio, &pem, Int32(pem.count)) == Int32(pem.count))
        return pem
    }

    /// A compact JWS of `claims` (JSON), with this key's `kid` unless `header` is given.
    func token(_ claims: String, header: String? = nil) -> String {
        let signingInput = encode(Array((header ?? #"{"alg":"\#(algorithm.rawValue)","kid":"\#(keyID)","typ":"JWT"}"#).utf8)) + "."
            + encode(Array(claims.utf8))
        return signingInput + "." + encode(sign(Array(signingInput.utf8)))
    }

    /// The signature of `message` as JWS carries it (raw r‖s for ES256).
    func sign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, algorithm == .edDSA ? nil : EVP_sha256(), nil, key) == 1)
        var length = 0
        precondition(EVP_DigestSign(context, nil, &length, message, message.count) == 1)
        var signature = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(context, &signature, &length, message, message.count) == 1)
        signature.removeLast(signature.count - length)
        guard algorithm == .es256 else { return signature }
        var pointer: UnsafePointer<UInt8>? = signature.withUnsafeBufferPointer { $0.baseAddress }
        let parsed = signature.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            pointer = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &pointer, buffer.count)
        }
        defer { ECDSA_SIG_free(parsed) }
        var raw = [UInt8](repeating: 0, count: 64)
        raw.withUnsafeMutableBufferPointer { buffer in
            _ = BN_bn2binpad(ECDSA_SIG_get0_r(parsed), buffer.baseAddress, 32)
            _ = BN_bn2binpad(ECDSA_SIG_get0_s(parsed), buffer.baseAddress! + 32, 32)
        }
        return raw
    }

    private func number(_ name: String) -> [UInt8] {
        var number: OpaquePointer?
        precondition(EVP_PKEY_get_bn_param(key, name, &number) == 1)
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        _ = BN_bn2bin(number, &bytes)
        return bytes
    }

    private func octets(_ name: String) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 256)
        var length = 0
        precondition(EVP_PKEY_get_octet_string_param(key, name, &bytes, bytes.count, &length) == 1)
        return Array(bytes[..<length])
    }
}

/// Unpadded base64url, as JWS writes it.
func encode(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// A JWK Set document of `keys`.
func keySet(_ keys: [TestSigningKey]) -> String {
    #"{"keys":[\#(keys.map(\.jwk).joined(separator: ","))]}"#
}
