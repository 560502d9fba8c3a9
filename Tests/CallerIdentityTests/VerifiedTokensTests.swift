import CallerIdentity
import Testing

@testable import Gateway

/// The table of verified tokens: exact matches only, until the token's expiry, bounded.
@Suite struct VerifiedTokensTests {
    static let key = TestSigningKey(.edDSA, keyID: "k")

    func identity(_ token: String) throws -> Identity {
        try TokenVerifier(issuer: "https://id.example", audience: "bff")
            .verify(token, keys: JSONWebKeySet(parsing: Array(keySet([Self.key]).utf8)), now: 1_800_000_000)
    }

    @Test func remembersExactTokensUntilTheyExpire() throws {
        let token = Self.key.token(#"{"sub":"a","iss":"https://id.example","aud":"bff","exp":1800000100}"#)
        let table = VerifiedTokens(capacity: 2)
        table.keep(try identity(token), for: token[...], acceptedUntil: 1_800_000_160)
        #expect(table.identity(of: token[...], at: 1_800_000_000)?.subject == "a")
        // Same signature bytes, other claims: not the token that was verified.
        let parts = token.split(separator: ".")
        #expect(table.identity(of: "\(parts[0]).e30.\(parts[2])"[...], at: 1_800_000_000) == nil)
        #expect(table.identity(of: token[...], at: 1_800_000_160) == nil)
        #expect(table.identity(of: token[...], at: 1_800_000_000) == nil, "an expired entry is dropped")
    }

    @Test func isBounded() throws {
        let table = VerifiedTokens(capacity: 2)
        let tokens = (0..<3).map { Self.key.token(#"{"sub":"\#($0)","iss":"https://id.example","aud":"bff","exp":1800000100}"#) }
        for token in tokens { table.keep(try identity(token), for: token[...], acceptedUntil: 1_800_000_100) }
        // Full at the third: emptied, then the third kept.
        #expect(table.identity(of: tokens[0][...], at: 1_800_000_000) == nil)
        #expect(table.identity(of: tokens[2][...], at: 1_800_000_000)?.subject == "2")
        table.removeAll()
        #expect(table.identity(of: tokens[2][...], at: 1_800_000_000) == nil)
    }
}
