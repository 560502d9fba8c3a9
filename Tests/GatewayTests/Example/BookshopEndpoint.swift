// A team's own upstream and a merged endpoint of two calls, written against the public API
// only (no @testable import), as a dependent package would; BookshopEndpointTests tests it
// with GatewayTesting.
import Gateway

extension UpstreamDefinition {
    /// Configured by UPSTREAM_BOOKSHOP_URL, _TIMEOUT_MS, _BEARER_TOKEN, … like the built-in ones.
    static let bookshop = UpstreamDefinition(name: "bookshop", defaultBaseURL: "https://books.example/api")
}

/// What the bookshop upstream answers (only the fields used).
struct Book: Decodable, Sendable {
    let title: String
    let author: String
}

struct Review: Codable, Sendable {
    let stars: Int
}

/// What the client gets; the framework adds `degraded`.
struct BookPage: Encodable, Sendable, Equatable {
    let title: String
    let author: String
    @Nullable var averageStars: Double?

    /// Pure merge: the book, and the mean of its reviews when they came.
    init(book: Book, reviews: [Review]?) {
        title = book.title
        author = book.author
        averageStars = reviews.flatMap { $0.isEmpty ? nil : Double($0.reduce(0) { $0 + $1.stars }) / Double($0.count) }
    }
}

extension Endpoint {
    static let book = Endpoint(
        "/v1/books/:isbn",
        summary: "A book with the average of its reviews",
        parameters: [.path("isbn", "the book's ISBN")],
        upstreams: [.bookshop],
        optionalParts: ["averageStars"],
        example: BookPage(book: Book(title: "Dune", author: "Frank Herbert"), reviews: [Review(stars: 6)])
    ) { call in
        let isbn = try call.string("isbn")
        let bookshop = try call.upstream(.bookshop)
        async let reviews = call.optional("averageStars") { try await bookshop.get("books", isbn, "reviews", as: [Review].self) }
        let book = try await bookshop.get("books", isbn, as: Book.self)
        return BookPage(book: book, reviews: try await reviews)
    }

    /// A review posted on the caller's behalf: its JSON body and its `Authorization` go on to the bookshop.
    static let review = Endpoint(
        method: .post,
        "/v1/books/:isbn/reviews",
        summary: "Post a review of a book as the caller",
        successStatus: .created,
        parameters: [.path("isbn", "the book's ISBN")],
        upstreams: [.bookshop],
        requestExample: Review(stars: 5),
        example: Review(stars: 5)
    ) { call in
        let isbn = try call.string("isbn")
        let review = try call.body(as: Review.self)
        guard (1...5).contains(review.stars) else { throw GatewayProblem(.badRequest, "stars must be from 1 to 5") }
        let bookshop = try call.upstream(.bookshop)
        return try await bookshop.send(
            .post, "books", isbn, "reviews", json: review, headers: ["Authorization": call.header("Authorization") ?? ""], as: Review.self)
    }
}
