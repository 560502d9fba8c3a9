import COpenSSL
import Foundation
import Testing

@testable import BrowserSession
@testable import CallerIdentity

/// `private_key_jwt`: the assertion's header and claims, and its signature checked by OpenSSL with the
/// public half of a key made now.
@Suite struct ClientAssertionTests {
    /// A key OpenSSL makes now, and its unencrypted PKCS #8 PEM.
    final class GeneratedKey: @unchecked Sendable {
        // @unchecked Sendable: `key` is never mutated after init; OpenSSL 3 verifies with one EVP_PKEY from many threads.
        let key: OpaquePointer
        let pem: [UInt8]

        /// The traditional form (`BEGIN RSA PRIVATE KEY`, `BEGIN EC PRIVATE KEY`), which Ed25519 has not.
        var traditionalPEM: [UInt8] { Self.written { PEM_write_bio_PrivateKey_traditional($0, key, nil, nil, 0, nil, nil) } }

        /// PKCS #8 encrypted with a passphrase.
        var encryptedPEM: [UInt8] {
            var passphrase = Array("correct horse".utf8)
            return Self.written { PEM_write_bio_PrivateKey($0, key, EVP_aes_256_cbc(), &passphrase, Int32(passphrase.count), nil, nil) }
        }

        /// A key of OpenSSL type `type`; an RSA-PSS one restricted to SHA-512 with `restrictedToSHA512`.
        init(_ type: String, group: String? = nil, bits: UInt32? = nil, restrictedToSHA512: Bool = false) {
            let context = EVP_PKEY_CTX_new_from_name(nil, type, nil)
            defer { EVP_PKEY_CTX_free(context) }
            precondition(EVP_PKEY_keygen_init(context) == 1)
            if let group { precondition(EVP_PKEY_CTX_set_group_name(context, group) == 1) }
            if let bits { precondition(EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1) }
            if restrictedToSHA512 { precondition(EVP_PKEY_CTX_set_rsa_pss_keygen_md(context, EVP_sha512()) == 1) }
            var key: OpaquePointer?
            precondition(EVP_PKEY_generate(context, &key) == 1)
            self.key = key!
            pem = Self.written { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        }

        /// What `write` writes to a memory BIO.
        private static func written(_ write: (OpaquePointer?) -> Int32) -> [UInt8] {
            let bio = BIO_new(BIO_s_mem())
            defer { BIO_free(bio) }
            precondition(write(bio) == 1)
            var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
            precondition(BIO_read(bio, &bytes, Int32(bytes.count)) == Int32(bytes.count))
            return bytes
        }

        deinit { EVP_PKEY_free(key) }

        /// Whether OpenSSL finds `signature` (DER for ECDSA) of `message` good under this key; PSS
        /// with a salt of exactly `pssSalt` bytes when given.
        func verifies(_ signature: [UInt8], of message: [UInt8], pssSalt: Int32? = nil) -> Bool {
            let context = EVP_MD_CTX_new()
            defer { EVP_MD_CTX_free(context) }
            var parameters: OpaquePointer?
            guard EVP_DigestVerifyInit(context, &parameters, EVP_sha256(), nil, key) == 1 else { return false }
            if let pssSalt {
                guard EVP_PKEY_CTX_set_rsa_padding(parameters, RSA_PKCS1_PSS_PADDING) == 1, EVP_PKEY_CTX_set_rsa_pss_saltlen(parameters, pssSalt) == 1
                else { return false }
            }
            return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        }
    }

    static func decoded(_ part: Substring) throws -> [String: Any] {
        let bytes = try #require(Base64URL.decode(Array(part.utf8)))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test(arguments: [("RSA", nil, "RS256"), ("RSA-PSS", nil, "PS256"), ("EC", "P-256", "ES256")])
    func signsWhatOpenSSLVerifies(type: String, group: String?, algorithm: String) throws {
        let generated = GeneratedKey(type, group: group)
        let assertion = try ClientAssertion(pem: generated.pem, keyID: "k\"1")
        #expect(assertion.algorithm == algorithm)
        let token = assertion.token(clientID: "gateway", audience: "https://id.example/o/token/", now: 1_800_000_000.7, jti: "j-1")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try Self.decoded(parts[0]), claims = try Self.decoded(parts[1])
        #expect(header["alg"] as? String == algorithm && header["typ"] as? String == "JWT" && header["kid"] as? String == "k\"1")
        #expect(claims["iss"] as? String == "gateway" && claims["sub"] as? String == "gateway")
        #expect(claims["aud"] as? String == "https://id.example/o/token/" && claims["jti"] as? String == "j-1")
        #expect(claims["iat"] as? Int == 1_800_000_000 && claims["exp"] as? Int == 1_800_000_060)
        let signature = try #require(Base64URL.decode(Array(parts[2].utf8)))
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        let der = algorithm == "ES256" ? try #require(ECDSASignature.der(fromRaw: signature)) : signature
        if algorithm == "ES256" { #expect(signature.count == 64) }
        let salt: Int32? = algorithm == "PS256" ? 32 : nil
        #expect(generated.verifies(der, of: signingInput, pssSalt: salt))
        #expect(!generated.verifies(der, of: signingInput + [0x20], pssSalt: salt))
        if algorithm == "PS256" { #expect(!generated.verifies(der, of: signingInput, pssSalt: 64), "PS256's salt is the digest's length") }
        // Another key of the same kind does not verify it.
        #expect(!GeneratedKey(type, group: group).verifies(der, of: signingInput, pssSalt: salt))
    }

    @Test(arguments: [("RSA", nil, "RS256"), ("EC", "P-256", "ES256")])
    func readsTheTraditionalFormAndRefusesAnEncryptedKey(type: String, group: String?, algorithm: String) throws {
        let generated = GeneratedKey(type, group: group)
        #expect(String(decoding: generated.traditionalPEM.prefix(40), as: UTF8.self).contains("-----BEGIN \(type) PRIVATE KEY-----"))
        #expect(try ClientAssertion(pem: generated.traditionalPEM, keyID: nil).algorithm == algorithm)
        #expect(String(decoding: generated.encryptedPEM.prefix(40), as: UTF8.self).contains("ENCRYPTED"))
        // Refused at once, never a prompt for the passphrase on the terminal.
        #expect(throws: ClientAssertion.Invalid(description: "is not an unencrypted PEM private key")) {
            try ClientAssertion(pem: generated.encryptedPEM, keyID: nil)
        }
    }

    @Test func refusesWhatIsNotAnRSAOrP256PrivateKey() throws {
        let refusals: [[UInt8]] = [
            GeneratedKey("RSA", bits: 1024).pem, GeneratedKey("RSA-PSS", bits: 1024).pem, GeneratedKey("EC", group: "P-384").pem,
            GeneratedKey("ED25519").pem,
        ]
        for pem in refusals {
            #expect(
                throws: ClientAssertion.Invalid(
                    description: "must be an RSA or RSA-PSS key of at least 2048 bits (RS256, PS256) or an EC P-256 key (ES256)")
            ) { try ClientAssertion(pem: pem, keyID: nil) }
        }
        #expect(throws: ClientAssertion.Invalid(description: "is an RSA-PSS key restricted to parameters other than PS256's (SHA-256, 32-byte salt)")) {
            try ClientAssertion(pem: GeneratedKey("RSA-PSS", restrictedToSHA512: true).pem, keyID: nil)
        }
        let certificate = try String(contentsOfFile: #filePath.replacingOccurrences(of: "BrowserSessionTests/ClientAssertionTests.swift", with: "Certificates/ca.pem"), encoding: .utf8)
        for notAKey in [Array(certificate.utf8), Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8), []] {
            #expect(throws: ClientAssertion.Invalid(description: "is not an unencrypted PEM private key")) { try ClientAssertion(pem: notAKey, keyID: nil) }
        }
    }

    @Test func rawAndDERSignaturesRoundTrip() {
        for raw in [[UInt8](repeating: 0xFF, count: 64), [UInt8](repeating: 0, count: 31) + [1] + [UInt8](repeating: 0x7F, count: 32)] {
            #expect(ECDSASignature.der(fromRaw: raw).flatMap(ECDSASignature.raw(fromDER:)) == raw)
        }
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x80]) == nil, "a negative s")
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]) == nil, "bytes after s")
        #expect(ECDSASignature.raw(fromDER: [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]) == nil, "not a sequence")
    }

    @Test func theProviderMustListTheMethodAndTheAlgorithm() throws {
        let client = TokenEndpoint(clientID: "gateway", credential: .privateKeyJWT(try ClientAssertion(pem: GeneratedKey("EC", group: "P-256").pem, keyID: nil)))
        func metadata(_ extra: String) throws -> ProviderMetadata {
            try ProviderMetadata(
                parsing: Array(#"{"issuer":"https://id.example","authorization_endpoint":"https://id.example/a","token_endpoint":"https://id.example/t","jwks_uri":"https://id.example/j"\#(extra)}"#.utf8),
                expectedIssuer: "https://id.example")
        }
        #expect(try metadata("").refusal(of: client) == "is private_key_jwt, which the provider's token_endpoint_auth_methods_supported does not list (client_secret_basic)")
        #expect(try metadata(#","token_endpoint_auth_methods_supported":["private_key_jwt"]"#).refusal(of: client) == nil)
        #expect(try metadata(#","token_endpoint_auth_methods_supported":["private_key_jwt"],"token_endpoint_auth_signing_alg_values_supported":["RS256","PS256"]"#)
            .refusal(of: client) == "is private_key_jwt with an ES256 key, which the provider's token_endpoint_auth_signing_alg_values_supported does not list (RS256, PS256)")
        #expect(try metadata(#","token_endpoint_auth_methods_supported":["private_key_jwt"],"token_endpoint_auth_signing_alg_values_supported":["ES256"]"#)
            .refusal(of: client) == nil)
        #expect(try metadata("").refusal(of: TokenEndpoint(clientID: "gateway", credential: .secretBasic("s"))) == nil)
    }

    @Test func privateKeyJWTSendsAnAssertionAndNoSecret() throws {
        let assertion = try ClientAssertion(pem: GeneratedKey("EC", group: "P-256").pem, keyID: nil)
        let client = TokenEndpoint(clientID: "gateway", credential: .privateKeyJWT(assertion))
        #expect(client.authentication == .privateKeyJWT)
        let first = client.request(.refresh("r1"), audience: "https://id.example/token", now: 1_800_000_000)
        let second = client.request(.refresh("r1"), audience: "https://id.example/token", now: 1_800_000_000)
        #expect(!first.headers.contains { $0.name == "Authorization" })
        let form = try #require(URLComponents(string: "?" + String(decoding: first.body, as: UTF8.self))?.queryItems)
        #expect(form.map(\.name) == ["grant_type", "refresh_token", "client_id", "client_assertion_type", "client_assertion"])
        #expect(form.first { $0.name == "client_assertion_type" }?.value == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let token = try #require(form.first { $0.name == "client_assertion" }?.value)
        let claims = try Self.decoded(token.split(separator: ".")[1])
        #expect(claims["aud"] as? String == "https://id.example/token")
        #expect(first.body != second.body, "a fresh jti for each call")
    }
}
