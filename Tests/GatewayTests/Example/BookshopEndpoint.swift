// The worked example of extending the gateway: a team adds its own upstream and a merged
// endpoint of two calls. This file is everything it writes; BookshopEndpointTests shows the tests.
@testable import Gateway

extension UpstreamDefinition {
    /// Configured by UPSTREAM_BOOKSHOP_URL, _TIMEOUT_MS, _BEARER_TOKEN, … like the built-in ones.
    static let bookshop = UpstreamDefinition(name: "bookshop", defaultBaseURL: "https://books.example/api")
}

/// What the bookshop upstream answers (only the fields used).
struct Book: Decodable, Sendable {
    let title: String
    let author: String
}

struct Review: Decodable, Sendable {
    let stars: Int
}

/// What the client gets.
struct BookPage: Encodable, Sendable, Equatable {
    let title: String
    let author: String
    @Nullable var averageStars: Double?
    let degraded: [String]

    /// Pure merge: the book, and the mean of its reviews when they came.
    init(book: Book, reviews: [Review]?, degraded: [String]) {
        title = book.title
        author = book.author
        averageStars = reviews.flatMap { $0.isEmpty ? nil : Double($0.reduce(0) { $0 + $1.stars }) / Double($0.count) }
        self.degraded = degraded
    }
}

extension Endpoint {
    static let book = Endpoint(
        "/v1/books/:isbn",
        summary: "A book with the average of its reviews",
        parameters: [.path("isbn", "the book's ISBN")],
        optionalParts: ["averageStars"],
        example: BookPage(book: Book(title: "Dune", author: "Frank Herbert"), reviews: [Review(stars: 5)], degraded: [])
    ) { call in
        let isbn = try call.string("isbn")
        let bookshop = call.upstream(.bookshop)
        async let reviews = call.optional("averageStars") { try await bookshop.get("books", isbn, "reviews", as: [Review].self) }
        let book = try await bookshop.get("books", isbn, as: Book.self)
        let bookReviews = await reviews
        return BookPage(book: book, reviews: bookReviews, degraded: call.degraded)
    }
}
