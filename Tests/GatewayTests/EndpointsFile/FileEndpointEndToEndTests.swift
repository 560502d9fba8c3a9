import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import ReferenceScenario
import Testing

@testable import Gateway

/// File-defined endpoints served in-process against stub upstreams over loopback sockets.
@Suite("Endpoints file end to end")
struct FileEndpointEndToEndTests {
    /// A bookshop over two file upstreams and a built-in one: the book, its author by a link
    /// from the book (on another upstream), and optional reviews with a query.
    static let bookshop = #"""
        {
          "upstreams": {
            "shop": { "url": "http://127.0.0.1:1/unused", "timeout_ms": 2000 },
            "people": { "url": "http://127.0.0.1:1/unused" }
          },
          "endpoints": [{
            "path": "/v2/books/{isbn}",
            "summary": "A book with its author and reviews",
            "parameters": {
              "isbn": { "in": "path", "type": "string", "pattern": "[0-9-]+", "maxLength": 17 },
              "lang": { "in": "query", "type": "string", "default": "en" }
            },
            "calls": {
              "book": { "upstream": "shop", "path": "/books/{isbn}" },
              "author": { "upstream": "people", "link": "{book.author}" },
              "reviews": { "upstream": "shop", "path": "/reviews", "query": { "isbn": "{isbn}", "lang": "{lang}" }, "optional": true }
            },
            "response": {
              "title": "{book.title}",
              "author": "{author.name}",
              "tags": "{book.tags[*].name}",
              "firstTag": "{book.tags[0]}",
              "missing": "{book.tags[9].name}",
              "stars": "{reviews.average}",
              "line": "{book.title} by {author.name} ({lang})",
              "constant": [1, true, null, "{{braces}}"]
            }
          }]
        }
        """#

    static let book = #"{"title":"Dune","author":"AUTHOR","tags":[{"name":"sf","id":1},{"name":"classic"}],"pages":412}"#

    /// Runs `body` with a gateway serving `file` (and the built-in endpoints), with the file's
    /// upstreams pointed at the stub server.
    static func withFileGateway(
        _ file: String, _ environment: [String: String] = [:], log: LogCapture? = nil, _ body: (GatewayUnderTest, StubUpstream) async throws -> Void
    ) async throws {
        let catalog = GatewayCatalog.reference.adding(try EndpointsFile(parsing: Array(file.utf8), alongside: .reference))
        // Only the file upstreams a test's file defines: the gateway refuses variables of others.
        try await withScenarioGateway(environment: environment, catalog: catalog, log: log, stubbed: ["shop", "people"], body)
    }

    /// Serves the bookshop's stub answers; the book's author link points at the people upstream.
    static func serveBookshop(_ stubs: StubUpstream) {
        stubs.answer(under: "/shop/books/", status: .ok, body: FileEndpointEndToEndTests.book.replacingOccurrences(
            of: "AUTHOR", with: stubs.baseURL + "/people/authors/7"))
        stubs.answer(under: "/people/authors/7", status: .ok, body: #"{"name":"Frank \"F.\" Herbert","born":1920}"#)
        stubs.answer(under: "/shop/reviews", status: .ok, body: #"{"average":4.5,"count":2}"#)
    }

    static let expectedBook =
        #"{"title":"Dune","author":"Frank \"F.\" Herbert","tags":["sf","classic"],"firstTag":{"name":"sf","id":1},"missing":null,"stars":4.5,"line":"Dune by Frank \"F.\" Herbert (en)","constant":[1,true,null,"{braces}"],"degraded":[]}"#

    @Test("two upstreams, a dependent link, a query, a projection and interpolation, exactly as the template says")
    func bookshop() async throws {
        try await Self.withFileGateway(Self.bookshop) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            let response = try await test.get("/v2/books/978-0441013593")
            #expect(response.status == 200)
            #expect(response.text == Self.expectedBook)
            #expect(response.headers["X-Gateway-Completed"] == "true")
            let paths = stubs.received.map(\.target).sorted()
            #expect(paths == ["/people/authors/7", "/shop/books/978-0441013593", "/shop/reviews?isbn=978-0441013593&lang=en"])
        }
    }

    /// Holds every arrival until `expected` have arrived: calls made one after the other would never meet.
    actor Meeting {
        let expected: Int
        private var arrived = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(of expected: Int) { self.expected = expected }

        func arrive() async {
            arrived += 1
            if arrived == expected {
                waiting.forEach { $0.resume() }
                waiting = []
            } else {
                await withCheckedContinuation { waiting.append($0) }
            }
        }
    }

    @Test("calls that read no other call start at once")
    func independentCallsOverlap() async throws {
        try await Self.withFileGateway(Self.bookshop) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            let meeting = Meeting(of: 2)
            let book = Array(Self.book.replacingOccurrences(of: "AUTHOR", with: stubs.baseURL + "/people/authors/7").utf8)
            stubs.answer(under: "/shop/books/") { _ in
                await meeting.arrive()
                return HTTPResponse(status: .ok, body: book)
            }
            stubs.answer(under: "/shop/reviews") { _ in
                await meeting.arrive()
                return HTTPResponse(status: .ok, body: Array(#"{"average":4.5}"#.utf8))
            }
            let response = try await test.get("/v2/books/1")
            #expect(response.status == 200)
            #expect(response.headers["X-Gateway-Completed"] == "true")
        }
    }

    @Test("a failed optional call is null and listed in degraded")
    func optionalCallFails() async throws {
        try await Self.withFileGateway(Self.bookshop, ["UPSTREAM_SHOP_RETRY_ATTEMPTS": "1"]) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            stubs.answer(under: "/shop/reviews", status: .internalServerError, body: "{}")
            let response = try await test.get("/v2/books/1?lang=fr")
            #expect(response.status == 200)
            #expect(response.text.contains(#""stars":null"#))
            #expect(response.text.hasSuffix(#""degraded":["reviews"]}"#))
            #expect(response.headers["X-Gateway-Completed"] == "false")
        }
    }

    @Test(
        "a required call's failure answers as the Swift endpoints do",
        arguments: [
            (HTTPStatus.notFound, #"{"detail":"x"}"#, 404),
            (HTTPStatus.internalServerError, "{}", 502),
            (HTTPStatus.ok, "not json", 502),
            (HTTPStatus.ok, String(repeating: "[", count: 100_000), 502),
            (HTTPStatus.tooManyRequests, "{}", 503),
        ])
    func requiredCallFails(status: HTTPStatus, body: String, expected: Int) async throws {
        try await Self.withFileGateway(Self.bookshop, ["UPSTREAM_SHOP_RETRY_ATTEMPTS": "1"]) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            stubs.answer(under: "/shop/books/", status: status, body: body)
            let response = try await test.get("/v2/books/1")
            #expect(response.status == expected)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.headers["X-Gateway-Completed"] == "false")
            #expect(!response.text.contains("not json"))
        }
    }

    @Test("an upstream that does not answer in time is a 504")
    func timeout() async throws {
        try await Self.withFileGateway(Self.bookshop, ["UPSTREAM_PEOPLE_TIMEOUT_MS": "200", "UPSTREAM_PEOPLE_RETRY_ATTEMPTS": "1"]) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            stubs.answer(under: "/people/", after: .seconds(5))
            let response = try await test.get("/v2/books/1")
            #expect(response.status == 504)
        }
    }

    @Test("a link outside the upstream's base URL is not followed: 502")
    func refusedLink() async throws {
        try await Self.withFileGateway(Self.bookshop) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune","author":"http://169.254.169.254/people/1"}"#)
            let response = try await test.get("/v2/books/1")
            #expect(response.status == 502)
            #expect(!stubs.received.contains { $0.path.hasPrefix("/people") })
        }
    }

    @Test(
        "a link that is not an absolute URL under the upstream is not followed: 502; an empty one is null",
        arguments: [("42", 502), (#"{"href":"x"}"#, 502), (#""/people/authors/7""#, 502), (#""""#, 200)])
    func linkNotAURL(author: String, expected: Int) async throws {
        try await Self.withFileGateway(Self.bookshop) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            stubs.answer(under: "/shop/books/", status: .ok, body: #"{"title":"Dune","author":\#(author)}"#)
            let response = try await test.get("/v2/books/1")
            #expect(response.status == expected)
            if expected == 200 { #expect(response.text.contains(#""author":null"#)) }
            #expect(!stubs.received.contains { $0.path.hasPrefix("/people") })
        }
    }

    @Test("a parameter that breaks its declaration is a 400 naming it; a path value stays one segment")
    func parameters() async throws {
        try await Self.withFileGateway(Self.bookshop) { test, stubs in
            FileEndpointEndToEndTests.serveBookshop(stubs)
            let bad = try await test.get("/v2/books/12a")
            #expect(bad.status == 400)
            #expect(bad.text.contains("isbn must match the pattern"))
            let long = try await test.get("/v2/books/" + String(repeating: "1", count: 18))
            #expect(long.status == 400)
            #expect(long.text.contains("isbn must be 1 to 17"))
        }
    }

    static let search = #"""
        {
          "upstreams": { "shop": { "url": "http://127.0.0.1:1/unused" } },
          "endpoints": [{
            "path": "/v2/search",
            "parameters": {
              "q": { "in": "query", "type": "string", "required": true },
              "page": { "in": "query", "type": "integer", "minimum": 1 },
              "size": { "in": "query", "type": "integer", "maximum": 50, "default": 10 }
            },
            "calls": {
              "hits": { "upstream": "shop", "path": "/search", "query": { "q": "{q}", "page": "{page}", "size": "{size}" } },
              "log": { "upstream": "shop", "method": "POST", "path": "/log/{hits.id}", "body": { "q": "{q}", "count": "{hits.count}" }, "optional": true },
              "audit": { "upstream": "shop", "path": "/audit/{log.id}", "optional": true }
            },
            "response": { "q": "{q}", "page": "{page}", "found": "{hits.count}", "audited": "{audit.ok}" }
          }, {
            "path": "/v2/items/{name}",
            "parameters": { "name": { "in": "path", "type": "string" } },
            "calls": { "item": { "upstream": "shop", "path": "/items/{name}/" } },
            "response": "{item}"
          }]
        }
        """#

    @Test("query parameters: required, optional left out (not sent), defaulted; a POST call with a JSON body")
    func queryAndBody() async throws {
        try await Self.withFileGateway(Self.search) { test, stubs in
            stubs.answer(under: "/shop/search", status: .ok, body: #"{"id":"a/b","count":3}"#)
            stubs.answer(under: "/shop/log/", status: .created, body: #"{"id":7}"#)
            stubs.answer(under: "/shop/audit/", status: .ok, body: #"{"ok":true}"#)
            let missing = try await test.get("/v2/search")
            #expect(missing.status == 400)
            #expect(missing.text.contains("q is required"))
            let response = try await test.get("/v2/search?q=a%20b")
            #expect(response.text == #"{"q":"a b","page":null,"found":3,"audited":true,"degraded":[]}"#)
            #expect(response.headers["X-Gateway-Completed"] == "true")
            let received = stubs.received
            #expect(received.map(\.target) == ["/shop/search?q=a%20b&size=10", "/shop/log/a%2Fb", "/shop/audit/7"])
            #expect(received[1].method == "POST")
            #expect(String(decoding: received[1].body, as: UTF8.self) == #"{"q":"a b","count":3}"#)
        }
    }

    @Test("a call that reads a failed optional call is not made, is null and is degraded too")
    func optionalChain() async throws {
        try await Self.withFileGateway(Self.search) { test, stubs in
            stubs.answer(under: "/shop/search", status: .ok, body: #"{"id":"x","count":0}"#)
            stubs.answer(under: "/shop/log/", status: .internalServerError, body: "{}")
            let response = try await test.get("/v2/search?q=x&page=2")
            #expect(response.text == #"{"q":"x","page":2,"found":0,"audited":null,"degraded":["log","audit"]}"#)
            #expect(response.headers["X-Gateway-Completed"] == "false")
            #expect(!stubs.received.contains { $0.path.hasPrefix("/shop/audit") })
        }
    }

    @Test("a path parameter is percent-encoded as one segment (values from answers too: see queryAndBody)")
    func pathValuesStayInTheirSegment() async throws {
        try await Self.withFileGateway(Self.search) { test, stubs in
            stubs.answer(under: "/shop/items/", status: .ok, body: #"[1, {"a": "b"}]"#)
            let response = try await test.get("/v2/items/a%20b&x=1;%25")
            #expect(response.text == #"[1,{"a":"b"}]"#)
            #expect(stubs.received.map(\.target) == ["/shop/items/a%20b%26x%3D1%3B%25/"])
        }
    }

    /// The example of docs/ENDPOINTS-FILE.md, also used to measure a file endpoint's cost.
    static var people: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("docs/endpoints-file-people.json"), encoding: .utf8)
        }
    }

    @Test("a file reproducing /v1/people/{id} without starships answers what its template says, beside the built-in one")
    func people() async throws {
        try await Self.withFileGateway(try Self.people) { test, stubs in
            let response = try await test.get("/v2/people/1")
            #expect(response.status == 200)
            #expect(response.text == #"{"id":1,"name":"Luke Skywalker","birthYear":"19BBY","homeworld":{"name":"Tatooine","climate":"arid","population":"200000"},"degraded":[]}"#)
            #expect(response.headers["X-Gateway-Completed"] == "true")
            let droid = try await test.get("/v2/people/2")
            #expect(droid.text == #"{"id":2,"name":"C-3PO","birthYear":"112BBY","homeworld":{"name":"Tatooine","climate":"arid","population":"200000"},"degraded":[]}"#)
            let builtIn = try await test.get("/v1/people/1")
            #expect(builtIn.text == EndToEndTests.expectedLuke)
            let missing = try await test.get("/v2/people/0")
            #expect(missing.status == 400)
        }
    }

    @Test("file endpoints appear in /openapi.json and GET / like the others")
    func documented() async throws {
        try await Self.withFileGateway(try Self.people) { test, stubs in
            let openAPI = try await test.get("/openapi.json")
            #expect(openAPI.text.contains(#""/v2/people/{id}""#))
            #expect(openAPI.text.contains("A Star Wars character with its homeworld"))
            let index = try await test.get("/")
            #expect(index.text.contains("/v2/people/"))
        }
    }

    @Test("a file's proxy route passes requests to its upstream, through real sockets")
    func proxy() async throws {
        let file = try EndpointsFile(parsing: Array(#"""
            { "upstreams": { "origin": { "url": "http://127.0.0.1:8000" } },
              "proxies": [ { "path": "/ct", "upstream": "origin" } ] }
            """#.utf8), alongside: GatewayCatalog(upstreams: [], endpoints: []))
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/people/1", method: .put) { request in
            HTTPResponse(status: .created, headers: ["Content-Type": "text/plain"], body: Array("stored \(request.query ?? "")".utf8))
        }
        let gateway = try GatewayUnderTest(
            catalog: GatewayCatalog(upstreams: [], endpoints: []).adding(file), environment: ["UPSTREAM_ORIGIN_URL": stub.baseURL])
        let response = try await gateway.send(.put, "/ct/people/1?notify=no", body: #"{"name":"Ada"}"#)
        await gateway.stop()
        #expect(response.status == 201 && response.text == "stored notify=no")
        #expect(stub.received.first?.body == Array(#"{"name":"Ada"}"#.utf8))
    }
}
