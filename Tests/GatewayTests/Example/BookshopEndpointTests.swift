import HTTPBasics
import HTTPServerCore
import Testing
import Upstream

@testable import Gateway

@Suite("Worked example: a team's own upstream and endpoint")
struct BookshopEndpointTests {
    /// The bookshop served by an in-memory stub: no sockets, no configuration files.
    private func gateway(reviews: Response) throws -> Gateway {
        let catalog = GatewayCatalog(upstreams: [.bookshop], endpoints: [.book])
        let configuration = try GatewayConfiguration(environment: [:], upstreams: catalog.upstreams)
        let stub = ClosureTransport { request throws(UpstreamError) in
            switch request.target {
            case "/api/books/978-0441013593": Response(status: .ok, body: Array(#"{"title":"Dune","author":"Frank Herbert","pages":604}"#.utf8))
            case "/api/books/978-0441013593/reviews": reviews
            default: Response(status: .notFound)
            }
        }
        return try Gateway(configuration: configuration, catalog: catalog) { _ in stub }
    }

    @Test("the merge is a pure function")
    func merge() {
        let page = BookPage(book: Book(title: "Dune", author: "Frank Herbert"), reviews: [Review(stars: 4), Review(stars: 5)], degraded: [])
        #expect(page.averageStars == 4.5)
        #expect(BookPage(book: Book(title: "Dune", author: "F"), reviews: [], degraded: []).averageStars == nil)
    }

    @Test("both calls merged")
    func merged() async throws {
        let gateway = try gateway(reviews: Response(status: .ok, body: Array(#"[{"stars":4},{"stars":5}]"#.utf8)))
        let response = await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/v1/books/978-0441013593"))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"title":"Dune","author":"Frank Herbert","averageStars":4.5,"degraded":[]}"#)
        #expect(response.headers["X-Gateway-Completed"] == "true")
    }

    @Test("failed reviews degrade; a missing book is a 404")
    func failures() async throws {
        let gateway = try gateway(reviews: Response(status: .internalServerError))
        let degraded = await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/v1/books/978-0441013593"))
        #expect(String(decoding: degraded.body, as: UTF8.self) == #"{"title":"Dune","author":"Frank Herbert","averageStars":null,"degraded":["averageStars"]}"#)
        let missing = await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/v1/books/0"))
        #expect(missing.status == .notFound)
    }

    @Test("the new endpoint is documented in OpenAPI")
    func documented() async throws {
        let gateway = try gateway(reviews: Response(status: .ok, body: Array("[]".utf8)))
        let document = await gateway.responder.respond(to: HTTPRequest(method: .get, target: "/openapi.json"))
        #expect(JSONValue(parsing: document.body)?["paths"]?["/v1/books/{isbn}"] != nil)
    }
}
