import Testing

@testable import CallerIdentity

/// Issue #30: a signed `exp` of `1e400` read as infinity, a token that never expired. Dates out of
/// NumericDate's range, of any registered time claim, make the claims malformed.
@Suite("NumericDate claims")
struct NumericDateTests {
    let verifier = TokenVerifier(issuer: "https://id.example", audience: "bff")

    @Test("an exp, nbf or iat that is no date in range is refused", arguments: [
        #""exp":1e400"#, #""exp":1E309"#, #""exp":-1"#, #""exp":-1e300"#, #""exp":253402300800"#, #""exp":9223372036854775808"#,
        #""exp":1800000600,"nbf":-1e400"#, #""exp":1800000600,"iat":1e400"#, #""exp":1800000600,"iat":"1700000000""#,
        #""exp":"1800000600""#,
    ])
    func refused(claim: String) throws {
        let key = TestSigningKey(.edDSA, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        let token = key.token(#"{"sub":"a","iss":"https://id.example","aud":"bff",\#(claim)}"#)
        let rejection = #expect(throws: TokenRejection.self) { try verifier.verify(token, keys: keys, now: TokenVerifierTests.now) }
        guard case .malformed = rejection else {
            Issue.record("\(claim): \(String(describing: rejection))")
            return
        }
    }

    @Test("dates in range pass, fractions included")
    func accepted() throws {
        #expect(NumericDate.seconds("1800000600.5") == 1_800_000_600.5)
        #expect(NumericDate.seconds("1.8e9") == 1_800_000_000)
        #expect(NumericDate.seconds("0") == 0)
        #expect(NumericDate.seconds("253402300799") == 253_402_300_799)
        let key = TestSigningKey(.edDSA, keyID: "k1")
        let keys = try JSONWebKeySet(parsing: Array(keySet([key]).utf8))
        let token = key.token(#"{"sub":"a","iss":"https://id.example","aud":"bff","exp":1.8000006e9,"iat":1799999999.25,"nbf":1799999999}"#)
        #expect(try verifier.verify(token, keys: keys, now: TokenVerifierTests.now).expiresAt == 1_800_000_600)
    }
}
