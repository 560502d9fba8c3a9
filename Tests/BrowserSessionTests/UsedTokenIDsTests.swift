import Testing

@testable import BrowserSession

@Suite struct UsedTokenIDsTests {
    @Test func aReplayIsRefusedUntilTheTokenExpires() {
        var used = UsedTokenIDs(capacity: 10)
        func firstUse(_ id: String, issuer: String = "https://id.example", expiresAt: Double, now: Double) -> Bool {
            used.recordFirstUse(id, issuer: issuer, expiresAt: expiresAt, now: now)
        }
        #expect(firstUse("j1", expiresAt: 200, now: 100))
        #expect(!firstUse("j1", expiresAt: 200, now: 150))
        #expect(firstUse("j1", issuer: "https://other.example", expiresAt: 200, now: 150), "another issuer's j1")
        // Expired, the token itself is refused by its exp; its id may be forgotten.
        #expect(firstUse("j1", expiresAt: 300, now: 200))
        #expect(used.count == 2)
    }

    @Test func theBoundDropsTheExpiredThenTheOldest() {
        var used = UsedTokenIDs(capacity: 3)
        func firstUse(_ id: String, expiresAt: Double = 500, now: Double) -> Bool {
            used.recordFirstUse(id, issuer: "i", expiresAt: expiresAt, now: now)
        }
        #expect(firstUse("a", expiresAt: 110, now: 100))
        #expect(firstUse("b", now: 100))
        #expect(firstUse("c", now: 100))
        // Full at 120: a has expired and goes; b and c stay.
        #expect(firstUse("d", now: 120))
        #expect(used.count == 3)
        #expect(!firstUse("b", now: 130))
        // Full with nothing expired: the oldest (b) goes.
        #expect(firstUse("e", now: 130))
        #expect(used.count == 3)
        #expect(!firstUse("c", now: 130))
        #expect(!firstUse("e", now: 130))
        #expect(firstUse("b", now: 130), "forgotten by the bound")
        for index in 0..<1000 { #expect(firstUse("f\(index)", now: 140)) }
        #expect(used.count == 3)
    }
}
