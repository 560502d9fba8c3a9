import Testing

@testable import BrowserSession

@Suite struct SessionCookieTests {
    @Test func theCookieHasTheHostPrefixAndItsAttributes() throws {
        let cookie = try #require(SessionCookie(sameSite: .strict))
        #expect(cookie.setting("abc") == "__Host-session=abc; Path=/; Secure; HttpOnly; SameSite=Strict")
        #expect(cookie.clearing.hasSuffix("Max-Age=0"))
        #expect(!cookie.setting("abc").contains("Domain"))
        #expect(SessionCookie(suffix: "a;b") == nil)
    }

    @Test func theSessionIDIsFoundOnceOrNotTrusted() throws {
        let cookie = try #require(SessionCookie())
        #expect(cookie.sessionID(in: ["theme=dark; __Host-session=xyz"]) == "xyz")
        #expect(cookie.sessionID(in: ["__Host-session=xyz", "__Host-session=planted"]) == nil)
        #expect(cookie.sessionID(in: ["__Host-sessionx=xyz"]) == nil)
        #expect(cookie.isCarried(in: ["a=1; __Host-session=xyz"]))
        #expect(!cookie.isCarried(in: ["a=1"]))
    }
}

@Suite struct PendingSignInTests {
    let pending = PendingSignIn(state: "s1", nonce: "n1", codeVerifier: "v", returnURL: "/", deadline: 100)

    @Test func theCodeOfTheMatchingCallbackIsTaken() throws {
        #expect(try pending.code(from: ["state": "s1", "code": "c"], now: 50) == "c")
    }

    @Test func callbacksThatDoNotMatchAreRefused() {
        #expect(throws: PendingSignIn.Refusal.stateMismatch) { try pending.code(from: ["state": "s2", "code": "c"], now: 50) }
        #expect(throws: PendingSignIn.Refusal.stateMismatch) { try pending.code(from: ["code": "c"], now: 50) }
        #expect(throws: PendingSignIn.Refusal.expired) { try pending.code(from: ["state": "s1", "code": "c"], now: 101) }
        #expect(throws: PendingSignIn.Refusal.missingCode) { try pending.code(from: ["state": "s1"], now: 50) }
        #expect(throws: PendingSignIn.Refusal.providerError("access_denied")) {
            try pending.code(from: ["state": "s1", "error": "access_denied"], now: 50)
        }
    }
}
