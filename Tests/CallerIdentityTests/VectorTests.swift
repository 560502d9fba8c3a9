import Foundation
import Testing

@testable import CallerIdentity

/// The pure parts against the RFCs' own examples.
@Suite struct VectorTests {
    @Test func base64URLIsStrict() {
        #expect(Base64URL.decode(Array("eyJhbGciOiJFZERTQSJ9".utf8)) == Array(#"{"alg":"EdDSA"}"#.utf8))
        #expect(Base64URL.decode(Array("-_8".utf8)) == [0xFB, 0xFF])
        #expect(Base64URL.decode(Array("".utf8)) == [])
        #expect(Base64URL.decode(Array("A".utf8)) == nil)
        #expect(Base64URL.decode(Array("AA==".utf8)) == nil)
        #expect(Base64URL.decode(Array("+/8".utf8)) == nil)
        // "AB" leaves non-zero bits after its one byte: not the canonical spelling of [0].
        #expect(Base64URL.decode(Array("AB".utf8)) == nil)
        #expect(Base64URL.decode(Array("AA".utf8)) == [0])
    }

    /// RFC 8037 A.4: the Ed25519 signature of "Example of Ed25519 signing".
    @Test func rfc8037Ed25519() throws {
        let key = try PublicKey(ed25519: try #require(Base64URL.decode(Array("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo".utf8))))
        let signature = try #require(
            Base64URL.decode(Array("hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg".utf8)))
        let signed = Array("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".utf8)
        #expect(signed.withUnsafeBytes { key.verify(signature: signature, of: $0) })
        var altered = signature
        altered[0] ^= 1
        #expect(!signed.withUnsafeBytes { key.verify(signature: altered, of: $0) })
    }

    /// RFC 7515 A.3: the ES256 example; its claims lack `aud`, so the verifier gets as far as the audience.
    @Test func rfc7515ES256() throws {
        let keys = try JSONWebKeySet(parsing: Array(#"""
            {"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}
            """#.utf8))
        let token = "eyJhbGciOiJFUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        let verifier = TokenVerifier(issuer: "joe", audience: "bff")
        #expect(throws: TokenRejection.wrongAudience) { try verifier.verify(token, keys: keys, now: 1_300_819_000) }
        #expect(throws: TokenRejection.expired) { try verifier.verify(token, keys: keys, now: 1_300_819_500) }
    }

    @Test func ecdsaSignaturesBecomeDER() {
        let raw = [UInt8](repeating: 0, count: 31) + [1] + [0x80] + [UInt8](repeating: 0, count: 31)
        #expect(ECDSASignature.der(fromRaw: raw) == [0x30, 0x26, 0x02, 0x01, 0x01, 0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0, count: 31))
        #expect(ECDSASignature.der(fromRaw: [UInt8](repeating: 0, count: 64)) == [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])
        #expect(ECDSASignature.der(fromRaw: [1, 2]) == nil)
    }

    @Test func keySetsKeepOnlyUsableSignatureKeys() throws {
        let ed = TestSigningKey(.edDSA, keyID: "ed")
        let set = #"{"keys":[{"kty":"oct","k":"c2VjcmV0"},{"kty":"RSA","use":"enc","n":"AQAB","e":"AQAB"},\#(ed.jwk),"#
            + #"{"kty":"OKP","crv":"X25519","x":"AA"}]}"#
        #expect(try JSONWebKeySet(parsing: Array(set.utf8)).count == 1)
        let failures = [
            "[]", #"{"keys":{}}"#, #"{"keys":[]}"#, #"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#,
            #"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}"#, #"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}"#,
            #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(encode([UInt8](repeating: 1, count: 32)))","y":"\#(encode([UInt8](repeating: 1, count: 32)))"}]}"#,
            #"{"keys":[{"kty":"EC","crv":"P-256","x":"!"}]}"#,
            // A real modulus with e = 1, which would make every signature equal its padded message.
            #"{"keys":[\#(TestSigningKey(.rs256, keyID: "r").jwk.replacingOccurrences(of: #""e":"AQAB""#, with: #""e":"AQ""#))]}"#,
        ]
        for document in failures {
            #expect(throws: JSONWebKeySet.Invalid.self) { try JSONWebKeySet(parsing: Array(document.utf8)) }
        }
    }
}
