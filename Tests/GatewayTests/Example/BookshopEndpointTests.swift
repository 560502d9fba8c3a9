import Gateway
import GatewayTesting
import Testing

@Suite("Worked example: a team's own upstream and endpoints, tested with GatewayTesting")
struct BookshopEndpointTests {
    private static let catalog = GatewayCatalog(upstreams: [.bookshop], endpoints: [.book, .review])

    /// The two ways a test runs a gateway; every test here runs both, which must agree.
    enum Mode: CaseIterable, CustomTestStringConvertible {
        case loopback, inProcess

        var testDescription: String { self == .loopback ? "over loopback" : "in process, no sockets" }

        func stub() throws -> StubUpstream {
            self == .loopback ? try StubUpstream() : StubUpstream.inProcess()
        }

        func gateway(for bookshop: StubUpstream) throws -> GatewayUnderTest {
            switch self {
            case .loopback: try GatewayUnderTest(catalog: catalog, environment: ["UPSTREAM_BOOKSHOP_URL": bookshop.baseURL])
            case .inProcess: try GatewayUnderTest(catalog: catalog, upstreams: ["bookshop": bookshop])
            }
        }
    }

    /// The bookshop stub with Dune and its reviews answering `reviewsStatus`.
    private func bookshop(_ mode: Mode, reviewsStatus: Int = 200) throws -> StubUpstream {
        let bookshop = try mode.stub()
        bookshop.answer("/books/978-0441013593", json: #"{"title":"Dune","author":"Frank Herbert","pages":604}"#)
        bookshop.answer("/books/978-0441013593/reviews", status: reviewsStatus, json: #"[{"stars":4},{"stars":5}]"#)
        return bookshop
    }

    @Test("the merge is a pure function")
    func merge() {
        #expect(BookPage(book: Book(title: "Dune", author: "Frank Herbert"), reviews: [Review(stars: 4), Review(stars: 5)]).averageStars == 4.5)
        #expect(BookPage(book: Book(title: "Dune", author: "F"), reviews: []).averageStars == nil)
    }

    @Test("both calls merged, degraded added by the framework", arguments: Mode.allCases)
    func merged(mode: Mode) async throws {
        let bookshop = try bookshop(mode)
        defer { bookshop.shutdown() }
        let gateway = try mode.gateway(for: bookshop)
        let response = try await gateway.get("/v1/books/978-0441013593")
        await gateway.stop()
        #expect(response.text == #"{"title":"Dune","author":"Frank Herbert","averageStars":4.5,"degraded":[]}"#)
        #expect(response.headers["X-Gateway-Completed"] == "true")
    }

    @Test("failed reviews degrade; a missing book is a 404", arguments: Mode.allCases)
    func failures(mode: Mode) async throws {
        let bookshop = try bookshop(mode, reviewsStatus: 500)
        defer { bookshop.shutdown() }
        let gateway = try mode.gateway(for: bookshop)
        let degraded = try await gateway.get("/v1/books/978-0441013593")
        let missing = try await gateway.get("/v1/books/0")
        await gateway.stop()
        #expect(degraded.text == #"{"title":"Dune","author":"Frank Herbert","averageStars":null,"degraded":["averageStars"]}"#)
        #expect(degraded.headers["X-Gateway-Completed"] == "false")
        #expect(missing.status == 404)
    }

    @Test("a POST passes its JSON body and the caller's Authorization on; a bad body is a 400", arguments: Mode.allCases)
    func post(mode: Mode) async throws {
        let bookshop = try mode.stub()
        defer { bookshop.shutdown() }
        bookshop.answer("/books/1/reviews", method: .post, status: 201, json: #"{"stars":5}"#)
        let gateway = try mode.gateway(for: bookshop)
        let posted = try await gateway.send(.post, "/v1/books/1/reviews", headers: ["Authorization": "Bearer caller"], body: #"{"stars":5}"#)
        let invalid = try await gateway.send(.post, "/v1/books/1/reviews", body: #"{"stars":"many"}"#)
        let outOfRange = try await gateway.send(.post, "/v1/books/1/reviews", body: #"{"stars":9}"#)
        await gateway.stop()
        #expect(posted.status == 201 && posted.text == #"{"stars":5}"#)
        let sent = try #require(bookshop.received.first)
        #expect(sent.method == "POST" && String(decoding: sent.body, as: UTF8.self) == #"{"stars":5}"#)
        #expect(sent.headers["Authorization"] == "Bearer caller")
        #expect(invalid.status == 400 && outOfRange.status == 400)
        #expect(bookshop.received.count == 1)
    }

    @Test("the new endpoints are documented in OpenAPI, a Double as a number")
    func documented() async throws {
        let gateway = try GatewayUnderTest(catalog: Self.catalog)
        let document = try await gateway.get("/openapi.json")
        await gateway.stop()
        #expect(document.text.contains(#""/v1/books/{isbn}""#))
        #expect(document.text.contains(#""averageStars":{"type":["number","null"]}"#))
        #expect(document.text.contains(#""post":{"summary":"Post a review of a book as the caller""#))
        #expect(document.text.contains(
            #""requestBody":{"required":true,"content":{"application/json":{"schema":{"type":"object","properties":{"stars":{"type":"integer"}},"required":["stars"]},"example":{"stars":5}}}}"#))
    }
}
