import BrowserSession
import CallerIdentity
import Foundation
import Testing

@Suite struct IDTokenCheckTests {
    static let key = TestSigningKey(.es256, keyID: "op1")
    static let keys = try! JSONWebKeySet(parsing: Array(keySet([key]).utf8))
    static let now = 1_800_000_000.0
    let check = IDTokenCheck(issuer: "https://id.example", clientID: "app")

    static func token(aud: String = #""app""#, nonce: String? = "n1", iat: Double? = now - 5, azp: String? = nil) -> String {
        var claims = #"{"sub":"u1","iss":"https://id.example","aud":\#(aud),"exp":\#(now + 300)"#
        if let nonce { claims += #","nonce":"\#(nonce)""# }
        if let iat { claims += #","iat":\#(iat)"# }
        if let azp { claims += #","azp":"\#(azp)""# }
        return key.token(claims + "}")
    }

    @Test func acceptsTheSignInsToken() throws {
        let identity = try check.verify(Self.token(), keys: Self.keys, nonce: "n1", now: Self.now)
        #expect(identity.subject == "u1")
    }

    @Test func refusesEachFailedCheck() {
        #expect(throws: IDTokenCheck.Refusal.nonce) { try check.verify(Self.token(nonce: "other"), keys: Self.keys, nonce: "n1", now: Self.now) }
        #expect(throws: IDTokenCheck.Refusal.nonce) { try check.verify(Self.token(nonce: nil), keys: Self.keys, nonce: "n1", now: Self.now) }
        #expect(throws: IDTokenCheck.Refusal.issuedAt) { try check.verify(Self.token(iat: nil), keys: Self.keys, nonce: "n1", now: Self.now) }
        #expect(throws: IDTokenCheck.Refusal.issuedAt) {
            try check.verify(Self.token(iat: Self.now + 3600), keys: Self.keys, nonce: "n1", now: Self.now)
        }
        #expect(throws: IDTokenCheck.Refusal.token(.wrongAudience)) {
            try check.verify(Self.token(aud: #""other""#), keys: Self.keys, nonce: "n1", now: Self.now)
        }
        #expect(throws: IDTokenCheck.Refusal.authorizedParty) {
            try check.verify(Self.token(aud: #"["app","api"]"#), keys: Self.keys, nonce: "n1", now: Self.now)
        }
        #expect(throws: IDTokenCheck.Refusal.token(.expired)) { try check.verify(Self.token(), keys: Self.keys, nonce: "n1", now: Self.now + 900) }
        let forged = TestSigningKey(.es256, keyID: "op1").token(#"{"sub":"u1","iss":"https://id.example","aud":"app","exp":\#(Self.now + 300),"iat":\#(Self.now),"nonce":"n1"}"#)
        #expect(throws: IDTokenCheck.Refusal.token(.badSignature)) { try check.verify(forged, keys: Self.keys, nonce: "n1", now: Self.now) }
    }

    @Test func severalAudiencesWithThisClientAsAuthorizedParty() throws {
        _ = try check.verify(Self.token(aud: #"["app","api"]"#, azp: "app"), keys: Self.keys, nonce: "n1", now: Self.now)
    }
}
