import Foundation
import GatewayTesting
import HTTPBasics
import HTTPServerCore
import Testing

@testable import Gateway
import ReferenceScenario

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

    /// A gateway serving `file` (and the built-in endpoints), with the file's upstreams pointed at the stub server.
    struct FileGateway {
        let stubs: StubUpstreams
        let gateway: Gateway

        init(_ file: String, _ environment: [String: String] = [:], logOutput: LogOutput? = nil) throws {
            let catalog = GatewayCatalog.reference.adding(try EndpointsFile(parsing: Array(file.utf8), alongside: .reference))
            stubs = try StubUpstreams()
            var variables = stubs.environment
            // Only the file upstreams a test's file defines: the gateway refuses variables of others.
            for upstream in catalog.upstreams where ["shop", "people"].contains(upstream.name) {
                variables[upstream.environmentPrefix + "URL"] = stubs.baseURL + "/" + upstream.name
            }
            variables.merge(environment) { _, test in test }
            let configuration = try GatewayConfiguration(environment: variables, upstreams: catalog.upstreams)
            gateway = try Gateway(
                configuration: configuration, catalog: catalog, logOutput: logOutput, transport: UpstreamTransports(for: configuration).make)
        }

        func get(_ target: String) async -> HTTPResponse {
            await gateway.responder.respond(to: HTTPRequest(method: .get, target: target))
        }

        /// Serves the bookshop's stub answers; the book's author link points at the people upstream.
        func serveBookshop() {
            stubs.override("/shop/books/", status: .ok, body: FileEndpointEndToEndTests.book.replacingOccurrences(
                of: "AUTHOR", with: stubs.baseURL + "/people/authors/7"))
            stubs.override("/people/authors/7", status: .ok, body: #"{"name":"Frank \"F.\" Herbert","born":1920}"#)
            stubs.override("/shop/reviews", status: .ok, body: #"{"average":4.5,"count":2}"#)
        }
    }

    static let expectedBook =
        #"{"title":"Dune","author":"Frank \"F.\" Herbert","tags":["sf","classic"],"firstTag":{"name":"sf","id":1},"missing":null,"stars":4.5,"line":"Dune by Frank \"F.\" Herbert (en)","constant":[1,true,null,"{braces}"],"degraded":[]}"#

    @Test("two upstreams, a dependent link, a query, a projection and interpolation, exactly as the template says")
    func bookshop() async throws {
        let test = try FileGateway(Self.bookshop)
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        let response = await test.get("/v2/books/978-0441013593")
        #expect(response.status == .ok)
        #expect(response.text == Self.expectedBook)
        #expect(response.headers["X-Gateway-Completed"] == "true")
        let paths = test.stubs.received.map(\.target).sorted()
        #expect(paths == ["/people/authors/7", "/shop/books/978-0441013593", "/shop/reviews?isbn=978-0441013593&lang=en"])
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
        let test = try FileGateway(Self.bookshop)
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        let meeting = Meeting(of: 2)
        let book = Array(Self.book.replacingOccurrences(of: "AUTHOR", with: test.stubs.baseURL + "/people/authors/7").utf8)
        test.stubs.override("/shop/books/") { _ in
            await meeting.arrive()
            return HTTPResponse(status: .ok, body: book)
        }
        test.stubs.override("/shop/reviews") { _ in
            await meeting.arrive()
            return HTTPResponse(status: .ok, body: Array(#"{"average":4.5}"#.utf8))
        }
        let response = await test.get("/v2/books/1")
        #expect(response.status == .ok)
        #expect(response.headers["X-Gateway-Completed"] == "true")
    }

    @Test("a failed optional call is null and listed in degraded")
    func optionalCallFails() async throws {
        let test = try FileGateway(Self.bookshop, ["UPSTREAM_SHOP_RETRY_ATTEMPTS": "1"])
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        test.stubs.override("/shop/reviews", status: .internalServerError, body: "{}")
        let response = await test.get("/v2/books/1?lang=fr")
        #expect(response.status == .ok)
        #expect(response.text.contains(#""stars":null"#))
        #expect(response.text.hasSuffix(#""degraded":["reviews"]}"#))
        #expect(response.headers["X-Gateway-Completed"] == "false")
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
        let test = try FileGateway(Self.bookshop, ["UPSTREAM_SHOP_RETRY_ATTEMPTS": "1"])
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        test.stubs.override("/shop/books/", status: status, body: body)
        let response = await test.get("/v2/books/1")
        #expect(response.status.code == expected)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.headers["X-Gateway-Completed"] == "false")
        #expect(!response.text.contains("not json"))
    }

    @Test("an upstream that does not answer in time is a 504")
    func timeout() async throws {
        let test = try FileGateway(Self.bookshop, ["UPSTREAM_PEOPLE_TIMEOUT_MS": "200", "UPSTREAM_PEOPLE_RETRY_ATTEMPTS": "1"])
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        test.stubs.override("/people/") { _ in
            try? await Task.sleep(for: .seconds(5))
            return HTTPResponse(status: .ok)
        }
        let response = await test.get("/v2/books/1")
        #expect(response.status.code == 504)
    }

    @Test("a link outside the upstream's base URL is not followed: 502")
    func refusedLink() async throws {
        let test = try FileGateway(Self.bookshop)
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        test.stubs.override("/shop/books/", status: .ok, body: #"{"title":"Dune","author":"http://169.254.169.254/people/1"}"#)
        let response = await test.get("/v2/books/1")
        #expect(response.status.code == 502)
        #expect(!test.stubs.received.contains { $0.path.hasPrefix("/people") })
    }

    @Test(
        "a link that is not an absolute URL under the upstream is not followed: 502; an empty one is null",
        arguments: [("42", 502), (#"{"href":"x"}"#, 502), (#""/people/authors/7""#, 502), (#""""#, 200)])
    func linkNotAURL(author: String, expected: Int) async throws {
        let test = try FileGateway(Self.bookshop)
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        test.stubs.override("/shop/books/", status: .ok, body: #"{"title":"Dune","author":\#(author)}"#)
        let response = await test.get("/v2/books/1")
        #expect(response.status.code == expected)
        if expected == 200 { #expect(response.text.contains(#""author":null"#)) }
        #expect(!test.stubs.received.contains { $0.path.hasPrefix("/people") })
    }

    @Test("a parameter that breaks its declaration is a 400 naming it; a path value stays one segment")
    func parameters() async throws {
        let test = try FileGateway(Self.bookshop)
        defer { test.stubs.shutdown() }
        test.serveBookshop()
        let bad = await test.get("/v2/books/12a")
        #expect(bad.status == .badRequest)
        #expect(bad.text.contains("isbn must match the pattern"))
        let long = await test.get("/v2/books/" + String(repeating: "1", count: 18))
        #expect(long.status == .badRequest)
        #expect(long.text.contains("isbn must be 1 to 17"))
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
        let test = try FileGateway(Self.search)
        defer { test.stubs.shutdown() }
        test.stubs.override("/shop/search", status: .ok, body: #"{"id":"a/b","count":3}"#)
        test.stubs.override("/shop/log/", status: .created, body: #"{"id":7}"#)
        test.stubs.override("/shop/audit/", status: .ok, body: #"{"ok":true}"#)
        let missing = await test.get("/v2/search")
        #expect(missing.status == .badRequest)
        #expect(missing.text.contains("q is required"))
        let response = await test.get("/v2/search?q=a%20b")
        #expect(response.text == #"{"q":"a b","page":null,"found":3,"audited":true,"degraded":[]}"#)
        #expect(response.headers["X-Gateway-Completed"] == "true")
        let received = test.stubs.received
        #expect(received.map(\.target) == ["/shop/search?q=a%20b&size=10", "/shop/log/a%2Fb", "/shop/audit/7"])
        #expect(received[1].method == .post)
        #expect(String(decoding: received[1].body, as: UTF8.self) == #"{"q":"a b","count":3}"#)
    }

    @Test("a call that reads a failed optional call is not made, is null and is degraded too")
    func optionalChain() async throws {
        let test = try FileGateway(Self.search)
        defer { test.stubs.shutdown() }
        test.stubs.override("/shop/search", status: .ok, body: #"{"id":"x","count":0}"#)
        test.stubs.override("/shop/log/", status: .internalServerError, body: "{}")
        let response = await test.get("/v2/search?q=x&page=2")
        #expect(response.text == #"{"q":"x","page":2,"found":0,"audited":null,"degraded":["log","audit"]}"#)
        #expect(response.headers["X-Gateway-Completed"] == "false")
        #expect(!test.stubs.received.contains { $0.path.hasPrefix("/shop/audit") })
    }

    @Test("a path parameter is percent-encoded as one segment (values from answers too: see queryAndBody)")
    func pathValuesStayInTheirSegment() async throws {
        let test = try FileGateway(Self.search)
        defer { test.stubs.shutdown() }
        test.stubs.override("/shop/items/", status: .ok, body: #"[1, {"a": "b"}]"#)
        let response = await test.get("/v2/items/a%20b&x=1;%25")
        #expect(response.text == #"[1,{"a":"b"}]"#)
        #expect(test.stubs.received.map(\.target) == ["/shop/items/a%20b%26x%3D1%3B%25/"])
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
        let test = try FileGateway(try Self.people)
        defer { test.stubs.shutdown() }
        let response = await test.get("/v2/people/1")
        #expect(response.status == .ok)
        #expect(response.text == #"{"id":1,"name":"Luke Skywalker","birthYear":"19BBY","homeworld":{"name":"Tatooine","climate":"arid","population":"200000"},"degraded":[]}"#)
        #expect(response.headers["X-Gateway-Completed"] == "true")
        let droid = await test.get("/v2/people/2")
        #expect(droid.text == #"{"id":2,"name":"C-3PO","birthYear":"112BBY","homeworld":{"name":"Tatooine","climate":"arid","population":"200000"},"degraded":[]}"#)
        let builtIn = await test.get("/v1/people/1")
        #expect(builtIn.text == EndToEndTests.expectedLuke)
        let missing = await test.get("/v2/people/0")
        #expect(missing.status == .badRequest)
    }

    @Test("file endpoints appear in /openapi.json and GET / like the others")
    func documented() async throws {
        let test = try FileGateway(try Self.people)
        defer { test.stubs.shutdown() }
        let openAPI = await test.get("/openapi.json")
        #expect(openAPI.text.contains(#""/v2/people/{id}""#))
        #expect(openAPI.text.contains("A Star Wars character with its homeworld"))
        let index = await test.get("/")
        #expect(index.text.contains("/v2/people/"))
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
