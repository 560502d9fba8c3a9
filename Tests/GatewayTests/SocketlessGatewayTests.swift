import Gateway
import GatewayTesting
import Testing

/// GatewayTesting's socketless mode: what it does that the loopback mode cannot show
/// (`BookshopEndpointTests` runs the same tests in both modes).
@Suite("A gateway under test without sockets")
struct SocketlessGatewayTests {
    private static let catalog = GatewayCatalog(upstreams: [.bookshop], endpoints: [.book, .review])

    @Test("a name in upstreams that is no upstream's is refused at start, naming the ones there are")
    func unknownUpstream() throws {
        let error = #expect(throws: GatewayStartupError.self) {
            try GatewayUnderTest(catalog: Self.catalog, upstreams: ["bookshp": StubUpstream.inProcess()])
        }
        #expect(error?.description == "no upstream named bookshp to stub (upstreams: bookshop)")
    }

    @Test("an upstream without a stub is refused like a closed port: a 502, not a hang")
    func unstubbedUpstream() async throws {
        let response = try await withGateway(catalog: Self.catalog, upstreams: [:]) { gateway in
            try await gateway.get("/v1/books/978-0441013593")
        }
        #expect(response.status == 502)
        #expect(response.headers["Content-Type"] == "application/problem+json")
    }

    @Test("the stub sees the paths under the base URL, with Host, and the fields every answer carries come back")
    func pathsAndFields() async throws {
        let bookshop = StubUpstream.inProcess()
        bookshop.answer("/books/1", json: #"{"title":"T","author":"A","pages":1}"#)
        bookshop.answer("/books/1/reviews", json: "[]")
        let response = try await withGateway(
            catalog: Self.catalog, upstreams: ["bookshop": bookshop], environment: ["UPSTREAM_BOOKSHOP_URL": "https://books.example/api/v2"]
        ) { gateway in
            try await gateway.get("/v1/books/1")
        }
        #expect(response.status == 200)
        #expect(Set(bookshop.received.map(\.path)) == ["/books/1", "/books/1/reviews"])
        #expect(bookshop.received.first?.headers["Host"] == "books.example")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["X-Request-ID"] != nil)
    }

    @Test("a LogCapture given to the gateway reads back its access line, its request id and status among them")
    func capturedLog() async throws {
        let bookshop = StubUpstream.inProcess()
        bookshop.answer("/books/1", json: #"{"title":"T","author":"A","pages":1}"#)
        bookshop.answer("/books/1/reviews", json: "[]")
        let log = try LogCapture()
        defer { log.close() }
        let response = try await withGateway(catalog: Self.catalog, upstreams: ["bookshop": bookshop], log: log) { gateway in
            try await gateway.get("/v1/books/1")
        }
        let lines = await log.lines { $0.contains { $0.contains(#""path":"/v1/books/1""#) } }
        let access = try #require(lines.first { $0.contains(#""path":"/v1/books/1""#) })
        #expect(access.contains(#""status":200"#))
        #expect(access.contains(try #require(response.headers["X-Request-ID"])))
    }

    @Test("fifty gateways side by side, each with its own stub, each answering from its own")
    func manyAtOnce() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    let bookshop = StubUpstream.inProcess()
                    bookshop.answer("/books/\(index)", json: #"{"title":"Book \#(index)","author":"A","pages":1}"#)
                    bookshop.answer("/books/\(index)/reviews", json: #"[{"stars":\#(index % 5 + 1)}]"#)
                    // Fifty gateways on two cores under a sanitizer can take seconds to answer; the
                    // test is about isolation, so no time limit of the gateway's may decide it.
                    let patient = ["UPSTREAM_BOOKSHOP_TIMEOUT_MS": "120000", "REQUEST_DEADLINE_MS": "120000"]
                    let response = try await withGateway(catalog: Self.catalog, upstreams: ["bookshop": bookshop], environment: patient) { gateway in
                        try await gateway.get("/v1/books/\(index)")
                    }
                    #expect(response.text == #"{"title":"Book \#(index)","author":"A","averageStars":\#(index % 5 + 1),"degraded":[]}"#)
                }
            }
            try await group.waitForAll()
        }
    }
}
