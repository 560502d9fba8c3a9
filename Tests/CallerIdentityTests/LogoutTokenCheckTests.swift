import BrowserSession
import CallerIdentity
import Testing

@Suite struct LogoutTokenCheckTests {
    static let key = TestSigningKey(.es256, keyID: "op1")
    static let keys = try! JSONWebKeySet(parsing: Array(keySet([key]).utf8))
    static let now = 1_800_000_000.0
    static let event = #""events":{"http://schemas.openid.net/event/backchannel-logout":{}}"#
    let check = LogoutTokenCheck(issuer: "https://id.example", clientID: "app")

    static func token(_ extra: String, events: String = event, jti: Bool = true) -> String {
        var claims = #"{"iss":"https://id.example","aud":"app","exp":\#(now + 120),"iat":\#(now - 5)"#
        if jti { claims += #","jti":"j1""# }
        if !events.isEmpty { claims += "," + events }
        return key.token(claims + (extra.isEmpty ? "" : "," + extra) + "}")
    }

    @Test func namesTheUserTheSessionOrBoth() throws {
        #expect(try check.verify(Self.token(#""sub":"u1""#), keys: Self.keys, now: Self.now) == .init(subject: "u1", providerSessionID: nil, tokenID: "j1", expiresAt: Self.now + 120))
        #expect(try check.verify(Self.token(#""sid":"s9""#), keys: Self.keys, now: Self.now) == .init(subject: nil, providerSessionID: "s9", tokenID: "j1", expiresAt: Self.now + 120))
        #expect(
            try check.verify(Self.token(#""sub":"u1","sid":"s9""#), keys: Self.keys, now: Self.now) == .init(subject: "u1", providerSessionID: "s9", tokenID: "j1", expiresAt: Self.now + 120))
    }

    @Test func refusesEachFailedCheck() {
        #expect(throws: LogoutTokenCheck.Refusal.subjectOrSession) { try check.verify(Self.token(""), keys: Self.keys, now: Self.now) }
        #expect(throws: LogoutTokenCheck.Refusal.nonce) { try check.verify(Self.token(#""sub":"u1","nonce":"n""#), keys: Self.keys, now: Self.now) }
        #expect(throws: LogoutTokenCheck.Refusal.identifier) { try check.verify(Self.token(#""sub":"u1""#, jti: false), keys: Self.keys, now: Self.now) }
        #expect(throws: LogoutTokenCheck.Refusal.event) { try check.verify(Self.token(#""sub":"u1""#, events: ""), keys: Self.keys, now: Self.now) }
        #expect(throws: LogoutTokenCheck.Refusal.event) {
            try check.verify(Self.token(#""sub":"u1""#, events: #""events":{"http://schemas.openid.net/event/backchannel-logout":"yes"}"#), keys: Self.keys, now: Self.now)
        }
        #expect(throws: LogoutTokenCheck.Refusal.event) {
            try check.verify(Self.token(#""sub":"u1""#, events: #""events":["x"]"#), keys: Self.keys, now: Self.now)
        }
        #expect(throws: LogoutTokenCheck.Refusal.token(.expired)) { try check.verify(Self.token(#""sub":"u1""#), keys: Self.keys, now: Self.now + 900) }
        let forged = TestSigningKey(.es256, keyID: "op1").token(#"{"iss":"https://id.example","aud":"app","exp":\#(Self.now + 60),"iat":\#(Self.now),"jti":"j","sub":"u1",\#(Self.event)}"#)
        #expect(throws: LogoutTokenCheck.Refusal.token(.badSignature)) { try check.verify(forged, keys: Self.keys, now: Self.now) }
    }
}
