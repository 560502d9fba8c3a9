import Testing
@testable import UpstreamKit

@Suite struct BaseURLTests {
    @Test func parsesAndNormalises() throws {
        let base = try BaseURL("HTTPS://SWAPI.dev:443/api/")
        #expect(base.origin == Origin(scheme: "https", host: "swapi.dev", port: 443))
        #expect(base.pathPrefix == "/api")
        #expect(base.description == "https://swapi.dev/api")
        let local = try BaseURL("http://127.0.0.1:8081")
        #expect(local.origin.hostHeader == "127.0.0.1:8081")
        #expect(local.pathPrefix == "")
        #expect(try BaseURL("http://[::1]:9000/x").origin.host == "[::1]")
    }

    @Test func aResourceKeepsItsTrailingSlash() throws {
        // django-oauth-toolkit's token endpoint is /o/token/; /o/token is a 404 there.
        #expect(try BaseURL("http://127.0.0.2:8000/o/token/").target == "/o/token/")
        #expect(try BaseURL("https://id.example/jwks").target == "/jwks")
        #expect(try BaseURL("https://id.example").target == "/")
    }

    @Test(arguments: [
        "ftp://swapi.dev/api", "swapi.dev/api", "https://user:pass@swapi.dev/api", "https://swapi.dev/api?x=1",
        "https://swapi.dev/api#top", "https://swapi.dev/a/../b", "https://swapi.dev/a%2Fb", "https://swapi.dev:99999/",
        "https://swapi.dev/a b", "https:///api", "https://swapi.dev:abc/",
    ])
    func refusesUnsafeBases(string: String) {
        #expect(throws: InvalidBaseURL.self) { try BaseURL(string) }
    }

    @Test(arguments: [
        ("https://swapi.dev/api/planets/1/", "/api/planets/1/"),
        ("https://SWAPI.DEV/api/planets/1/", "/api/planets/1/"),
        ("https://swapi.dev:443/api/planets/1/", "/api/planets/1/"),
        ("https://swapi.dev/api/planets/%31/", "/api/planets/1/"),
        ("https://swapi.dev/api", "/api"),
        ("https://swapi.dev/api/", "/api/"),
        ("https://swapi.dev/api/planets/?page=2", "/api/planets/?page=2"),
        ("https://swapi.dev/%61pi/people/1/", "/api/people/1/"),
        ("https://swapi.dev/api/.../.x/x./1/", "/api/.../.x/x./1/"),
    ])
    func followsLinksUnderTheBase(link: String, target: String) throws {
        #expect(try Bases.swapi.target(forLink: link) == target)
    }

    @Test(arguments: [
        "http://swapi.dev/api/planets/1/",
        "https://swapi.dev:8443/api/planets/1/",
        "https://evil.example/api/planets/1/",
        "https://swapi.dev.evil.example/api/planets/1/",
        "https://swapi.dev/apiary/1/",
        "https://swapi.dev/other/1/",
        "https://swapi.dev/api/../admin/",
        "https://swapi.dev/api/%2e%2e/admin/",
        "https://swapi.dev/api/planets/..",
        "https://swapi.dev/api/./planets/1/",
        "https://swapi.dev/api/planets/.",
        "https://swapi.dev/api/planets/%2E/",
        "https://swapi.dev/api/planets%2F1/",
        "https://swapi.dev/api/planets%5C1/",
        "https://swapi.dev/api/planets\\1/",
        "https://user@swapi.dev/api/planets/1/",
        "https://swapi.dev@evil.example/api/planets/1/",
        "https://swapi.dev/api/planets/1/#frag",
        "https://swapi.dev/api//planets/1/",
        "https://swapi.dev/api/planets/1%00/",
        "//swapi.dev/api/planets/1/",
        "/api/planets/1/",
        "javascript:alert(1)",
        "https://swapi.dev/api/planets/1/\r\nX: y",
    ])
    func refusesLinksOutsideTheBase(link: String) throws {
        let base = try Bases.swapi
        let error = #expect(throws: UpstreamError.self) { try base.target(forLink: link) }
        guard case .refusedLink = error else {
            Issue.record("expected refusedLink, got \(String(describing: error))")
            return
        }
    }

    @Test func rootBaseAdmitsAnyPathOnItsOrigin() throws {
        let base = try BaseURL("http://127.0.0.1:8081/")
        #expect(try base.target(forLink: "http://127.0.0.1:8081/planets/1/") == "/planets/1/")
        #expect(throws: UpstreamError.self) { try base.target(forLink: "http://127.0.0.1:8082/planets/1/") }
    }
}
