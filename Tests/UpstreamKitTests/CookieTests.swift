import Testing

@testable import FoundationTransport
@testable import UpstreamKit

@Suite struct CookieTests {
    private func parse(_ header: String, host: String = "api.example", path: String = "/api/people/1/", secure: Bool = true) -> Cookie? {
        Cookie.parse(header, host: host, requestPath: path, isSecureOrigin: secure, now: 1000)
    }

    @Test func attributes() throws {
        let cookie = try #require(parse("rl=abc123; Path=/; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:01 GMT; Secure; HttpOnly"))
        #expect(cookie.name == "rl")
        #expect(cookie.value == "abc123")
        #expect(cookie.path == "/")
        #expect(cookie.expiry == 1060)
        #expect(cookie.isSecureOnly)
    }

    @Test func defaultPathIsTheRequestDirectory() throws {
        #expect(try #require(parse("a=1")).path == "/api/people/1")
        #expect(try #require(parse("a=1", path: "/x")).path == "/")
        #expect(Cookie.defaultPath(for: "") == "/")
    }

    @Test func expiresAndDeletion() throws {
        #expect(try #require(parse("a=1; Expires=Thu, 01 Jan 1970 00:00:01 GMT")).isExpired(at: 1000))
        #expect(try #require(parse("a=1; Max-Age=0")).isExpired(at: 1000))
        #expect(!(try #require(parse("a=1")).isExpired(at: 1000)))
    }

    @Test func refusals() {
        #expect(parse("a=1; Secure", secure: false) == nil)
        #expect(parse("a=1; Domain=other.example") == nil)
        #expect(parse("a=1; Domain=.example") != nil)
        #expect(parse("a=1; Domain=api.example") != nil)
        #expect(parse("no-equals") == nil)
        #expect(parse("=value") == nil)
        #expect(parse("a=b\r\nX: y") == nil)
        #expect(parse("a=" + String(repeating: "x", count: 5000)) == nil)
    }

    @Test func pathMatching() throws {
        let cookie = try #require(parse("a=1; Path=/api"))
        #expect(cookie.matches(path: "/api"))
        #expect(cookie.matches(path: "/api/x"))
        #expect(!cookie.matches(path: "/apiary"))
        #expect(!cookie.matches(path: "/"))
    }

    @Test func foldedSetCookieSplitsOnlyBetweenCookies() {
        #expect(FoldedSetCookie.split("rl=1; Path=/, session=2; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure")
            == ["rl=1; Path=/", "session=2; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure"])
        #expect(FoldedSetCookie.split("a=1") == ["a=1"])
    }
}
