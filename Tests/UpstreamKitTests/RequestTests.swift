import HTTPBasics
import Testing
@testable import UpstreamKit

@Suite struct RequestTests {
    @Test func deckShuffleTarget() throws {
        let request = Request<Shuffle>(path: try Path("new", "shuffle", trailingSlash: true), query: [QueryItem("deck_count", "1")])
        let wire = try request.transportRequest(against: Bases.deck)
        #expect(wire.method == .get)
        #expect(wire.origin == Origin(scheme: "https", host: "deckofcardsapi.com", port: 443))
        #expect(wire.target == "/api/deck/new/shuffle/?deck_count=1")
        #expect(wire.headers["Accept"] == "application/json")
        #expect(wire.body == nil)
        #expect(!wire.requiresAuthentication)
    }

    @Test func deckDrawTarget() throws {
        let request = Request<Draw>(path: try Path("3p40paa87x90", "draw", trailingSlash: true), query: [QueryItem("count", "10")])
        #expect(try request.transportRequest(against: Bases.deck).target == "/api/deck/3p40paa87x90/draw/?count=10")
    }

    @Test(arguments: [("people", "/api/people/1/"), ("planets", "/api/planets/1/"), ("starships", "/api/starships/1/")])
    func swapiTargets(resource: String, target: String) throws {
        let request = Request<Person>(path: try Path(resource, "1", trailingSlash: true))
        let wire = try request.transportRequest(against: Bases.swapi)
        #expect(wire.target == target)
        #expect(wire.origin.hostHeader == "swapi.dev")
    }

    @Test func menuTargets() throws {
        let menu = try Request<[Dish]>(path: Path("menu_response.json")).transportRequest(against: Bases.menu)
        let dish = try Request<Dish>(path: Path("dish_of_the_day.json")).transportRequest(against: Bases.menu)
        #expect(menu.origin.hostHeader == "raw.githubusercontent.com")
        #expect(menu.target == "/mokagio/tddinswift_fake_api/trunk/menu_response.json")
        #expect(dish.target == "/mokagio/tddinswift_fake_api/trunk/dish_of_the_day.json")
    }

    @Test(arguments: [
        // `../admin` itself is refused (ServletDotSegmentTests): `..%2F` climbs where a server decodes `%2F` first.
        ("..%2Fadmin", "/api/people/..%252Fadmin/"),
        ("a%2Fb", "/api/people/a%252Fb/"),
        ("a/b", "/api/people/a%2Fb/"),
        ("1?admin=true", "/api/people/1%3Fadmin%3Dtrue/"),
        ("1#x", "/api/people/1%23x/"),
        ("x\\y", "/api/people/x%5Cy/"),
        ("é 1", "/api/people/%C3%A9%201/"),
        ("a\r\nHost: evil", "/api/people/a%0D%0AHost%3A%20evil/"),
    ])
    func hostileSegmentsStayInTheirSegment(parameter: String, target: String) throws {
        let wire = try Request<Person>(path: try Path("people", parameter, trailingSlash: true)).transportRequest(against: Bases.swapi)
        #expect(wire.target == target)
        #expect(wire.target.split(separator: "/").count == 3)
    }

    @Test(arguments: [
        ("", nil, "/api"),
        ("/", nil, "/api/"),
        ("/a/b", "x=1", "/api/a/b?x=1"),
        ("/a%2Fb/caf%C3%A9/a+b/%7E", "q=%zz&&=#", nil),
        ("/a%2Fb/caf%C3%A9/a+b/%7E", "q=%zz&&=", "/api/a%2Fb/caf%C3%A9/a+b/%7E?q=%zz&&="),
        ("//x/.../a..b/.a/..b", "", "/api//x/.../a..b/.a/..b?"),
    ] as [(String, String?, String?)])
    func encodedTargetsGoBelowTheBasePathAsTheyAre(path: String, query: String?, target: String?) throws {
        let encoded: EncodedTarget
        do {
            encoded = try EncodedTarget(path: path, query: query)
        } catch {
            #expect(target == nil && error == .invalidCharacter)
            return
        }
        let request = Request<Response>(.delete, .encoded(encoded), query: target?.contains("?") == true ? [] : [QueryItem("k", "v w")]) { $0 }
        let wire = try request.transportRequest(against: Bases.swapi)
        #expect(wire.target == (target?.contains("?") == true ? target : (target ?? "") + "?k=v%20w"))
        #expect(wire.method == .delete)
        let root = try request.transportRequest(against: BaseURL("http://h:8000"))
        #expect(root.target.hasPrefix(path.isEmpty ? "/" : path))
    }

    @Test(arguments: [
        ("a/b", InvalidTarget.notAPath), ("/..", .dotSegment), ("/.", .dotSegment), ("/a/../b", .dotSegment), ("/a/./b", .dotSegment),
        ("/a/..", .dotSegment), ("/%2e%2E/x", .dotSegment), ("/%2E", .dotSegment), ("/a%2F..%2Fb", .dotSegment),
        ("/a/..%5Cb", .dotSegment), ("/a\\..\\b", .dotSegment), ("/.%2e", .dotSegment),
        ("/a%00", .controlCharacter), ("/a%0D%0AHost:%20evil", .controlCharacter), ("/a%0a", .controlCharacter), ("/%7F", .controlCharacter),
        ("/a#b", .invalidCharacter), ("/a?b", .invalidCharacter), ("/a b", .invalidCharacter), ("/a\r\nb", .invalidCharacter),
        ("/caf\u{E9}", .invalidCharacter), ("/a%", .invalidEscape), ("/a%4", .invalidEscape), ("/a%zz", .invalidEscape),
    ])
    func encodedTargetsThatCouldEscapeOrSplitAreRefused(path: String, error: InvalidTarget) {
        #expect(throws: error) { try EncodedTarget(path: path, query: nil) }
    }

    @Test func encodedQueriesAreCheckedForWhatEndsOrSplitsATarget() {
        for query in ["a#b", "a b", "a\r\nb", "\u{0}", "é"] {
            #expect(throws: InvalidTarget.invalidCharacter) { try EncodedTarget(path: "/a", query: query) }
        }
        #expect((try? EncodedTarget(path: "/a", query: "b=%00&c=../..&d=%0D%0A"))?.description == "/a?b=%00&c=../..&d=%0D%0A")
    }

    @Test func refusedSegments() {
        #expect(throws: InvalidPathSegment.dotSegment) { try Path("people", "..") }
        #expect(throws: InvalidPathSegment.dotSegment) { try Path(".", "x") }
        #expect(throws: InvalidPathSegment.empty) { try Path("people", "") }
        #expect(throws: InvalidPathSegment.containsNUL) { try Path("people", "1\u{0}") }
    }

    @Test func queryIsEncoded() throws {
        let request = Request<Void>(path: try Path("search"), query: [QueryItem("q", "a&b=c d"), QueryItem("x y", "/")])
        #expect(try request.transportRequest(against: Bases.swapi).target == "/api/search?q=a%26b%3Dc%20d&x%20y=%2F")
    }

    @Test func headerInjectionIsRefused() throws {
        let request = Request<Void>(path: try Path("x"), headers: ["X-Note": "a\r\nInjected: yes"])
        #expect(throws: UpstreamError.invalidRequest(reason: "header field X-Note is not allowed")) {
            try request.transportRequest(against: Bases.swapi)
        }
        let badName = Request<Void>(path: try Path("x"), headers: ["Bad Name": "v"])
        #expect(throws: UpstreamError.self) { try badName.transportRequest(against: Bases.swapi) }
    }

    @Test func methodBodyAndAuthenticationReachTheWire() throws {
        let request = Request<Void>(.post, path: try Path("cards"), headers: ["Content-Type": "application/json"],
                                    body: Array("{}".utf8), requiresAuthentication: true)
        let wire = try request.transportRequest(against: Bases.deck)
        #expect(wire.method == .post)
        #expect(wire.body == Array("{}".utf8))
        #expect(wire.requiresAuthentication)
        #expect(wire.headers["Content-Type"] == "application/json")
    }

    @Test func linkBecomesTargetUnderTheBase() throws {
        let wire = try Request<Planet>(link: "https://swapi.dev/api/planets/1/").transportRequest(against: Bases.swapi)
        #expect(wire.target == "/api/planets/1/")
        #expect(try wire.origin == Bases.swapi.origin)
        let paged = try Request<Planet>(.get, .link("https://swapi.dev/api/planets/?page=2"), query: [QueryItem("format", "json")]) { _ throws(UpstreamError) in
            throw .decodingFailed(reason: "unused")
        }.transportRequest(against: Bases.swapi)
        #expect(paged.target == "/api/planets/?page=2&format=json")
    }

    @Test func refusedLinkIsThrownWhenBuilding() {
        #expect(throws: UpstreamError.refusedLink("link points to another origin")) {
            try Request<Planet>(link: "https://evil.example/api/planets/1/").transportRequest(against: Bases.swapi)
        }
    }
}
