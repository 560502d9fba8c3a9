import Testing

@testable import CallerIdentity

/// Tokens and keys made by OpenSSL at test time, checked by the verifier at a fixed time.
@Suite struct TokenVerifierTests {
    static let now = 1_800_000_000.0
    let verifier = TokenVerifier(issuer: "https://id.example", audience: "bff")

    static func claims(sub: String = "user-1", iss: String = "https://id.example", aud: String = #""bff""#, exp: Double = now + 600, extra: String = "")
        -> String
    {
        #"{"sub":"\#(sub)","iss":"\#(iss)","aud":\#(aud),"exp":\#(exp)\#(extra)}"#
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func verifiesEachAlgorithm(_ algorithm: SignatureAlgorithm) throws {
        let key = TestSigningKey(algorithm, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        let identity = try verifier.verify(key.token(Self.claims(extra: #","scope":"read write","tenant":"t9""#)), keys: keys, now: Self.now)
        #expect(identity.subject == "user-1")
        #expect(identity.issuer == "https://id.example")
        #expect(identity.audience == ["bff"])
        #expect(identity.scopes == ["read", "write"])
        #expect(identity.claim("tenant")?.text == "t9")
        #expect(identity.claim("tenant")?.json == Array(#""t9""#.utf8))
        #expect(identity.claim("exp")?.text == "1800000600.0")
        #expect(identity.claim("absent") == nil)
    }

    @Test func refusesATamperedSignatureOrClaims() throws {
        let key = TestSigningKey(.es256, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        let token = key.token(Self.claims())
        let parts = token.split(separator: ".")
        let otherClaims = encode(Array(Self.claims(sub: "admin").utf8))
        #expect(throws: TokenRejection.badSignature) { try verifier.verify("\(parts[0]).\(otherClaims).\(parts[2])", keys: keys, now: Self.now) }
        let otherKey = TestSigningKey(.es256, keyID: "k1")
        #expect(throws: TokenRejection.badSignature) { try verifier.verify(otherKey.token(Self.claims()), keys: keys, now: Self.now) }
    }

    @Test func checksTimesWithTheLeeway() throws {
        let key = TestSigningKey(.edDSA, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        let expired = key.token(Self.claims(exp: Self.now - 30))
        #expect(throws: Never.self) { try verifier.verify(expired, keys: keys, now: Self.now) }
        #expect(throws: TokenRejection.expired) { try verifier.verify(expired, keys: keys, now: Self.now + 31) }
        let early = key.token(Self.claims(extra: ",\"nbf\":\(Self.now + 90)"))
        #expect(throws: TokenRejection.notYetValid) { try verifier.verify(early, keys: keys, now: Self.now) }
        #expect(throws: Never.self) { try verifier.verify(early, keys: keys, now: Self.now + 31) }
        let noExpiry = key.token(#"{"sub":"a","iss":"https://id.example","aud":"bff"}"#)
        #expect(throws: TokenRejection.malformed("the claims have no exp")) { try verifier.verify(noExpiry, keys: keys, now: Self.now) }
    }

    @Test func checksIssuerAndAudience() throws {
        let key = TestSigningKey(.edDSA, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        #expect(throws: TokenRejection.wrongIssuer) { try verifier.verify(key.token(Self.claims(iss: "https://evil.example")), keys: keys, now: Self.now) }
        #expect(throws: TokenRejection.wrongAudience) { try verifier.verify(key.token(Self.claims(aud: #""other""#)), keys: keys, now: Self.now) }
        #expect(throws: TokenRejection.wrongAudience) { try verifier.verify(key.token(Self.claims(aud: "[]")), keys: keys, now: Self.now) }
        let identity = try verifier.verify(key.token(Self.claims(aud: #"["other","bff"]"#)), keys: keys, now: Self.now)
        #expect(identity.audience == ["other", "bff"])
        #expect(throws: TokenRejection.malformed("the claims are not an object with registered claims of their types")) {
            try verifier.verify(key.token(Self.claims(aud: "[1]")), keys: keys, now: Self.now)
        }
    }

    @Test func refusesNoneHMACAndMismatchedKeys() throws {
        let rsa = TestSigningKey(.rs256, keyID: "rsa")
        let keys = try JSONWebKeySet(parsing: Array(keySet([rsa]).utf8))
        let claims = encode(Array(Self.claims().utf8))
        let none = encode(Array(#"{"alg":"none"}"#.utf8)) + "." + claims + "."
        #expect(throws: TokenRejection.unsupportedAlgorithm) { try verifier.verify(none, keys: keys, now: Self.now) }
        let hmac = encode(Array(#"{"alg":"HS256","kid":"rsa"}"#.utf8)) + "." + claims + ".c2ln"
        #expect(throws: TokenRejection.unsupportedAlgorithm) { try verifier.verify(hmac, keys: keys, now: Self.now) }
        // An ES256 token naming the RSA key's kid finds no key of its type.
        let ec = TestSigningKey(.es256, keyID: "rsa")
        #expect(throws: TokenRejection.unknownKey) { try verifier.verify(ec.token(Self.claims()), keys: keys, now: Self.now) }
        let critical = rsa.token(Self.claims(), header: #"{"alg":"RS256","kid":"rsa","crit":["exp"]}"#)
        #expect(throws: TokenRejection.unsupportedAlgorithm) { try verifier.verify(critical, keys: keys, now: Self.now) }
        let unknown = TestSigningKey(.rs256, keyID: "new")
        #expect(verifier.namesUnknownKey(unknown.token(Self.claims()), keys: keys))
        #expect(!verifier.namesUnknownKey(rsa.token(Self.claims()), keys: keys))
    }

    @Test func refusesOversizedAndMalformedTokens() throws {
        let key = TestSigningKey(.edDSA, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        let large = key.token(Self.claims(extra: ",\"pad\":\"\(String(repeating: "x", count: 8192))\""))
        #expect(throws: TokenRejection.tooLarge) { try verifier.verify(large, keys: keys, now: Self.now) }
        for token in ["", "a.b", "a.b.c.d", "eyJhbGciOiJFZERTQSJ9.e30", "!!.e30.AA", "e30.e30.AA"] {
            #expect(throws: TokenRejection.self) { try verifier.verify(token, keys: keys, now: Self.now) }
        }
        let notObject = encode(Array(#"{"alg":"EdDSA"}"#.utf8)) + "." + encode(Array("[1]".utf8)) + "."
        let signed = notObject + encode(key.sign(Array(notObject.dropLast().utf8)))
        #expect(throws: TokenRejection.malformed("the claims are not an object with registered claims of their types")) {
            try verifier.verify(signed, keys: keys, now: Self.now)
        }
    }

    @Test func keyWithoutKidMatchesByType() throws {
        let key = TestSigningKey(.es256, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        let token = key.token(Self.claims(), header: #"{"alg":"ES256"}"#)
        #expect(try verifier.verify(token, keys: keys, now: Self.now).subject == "user-1")
    }
}
