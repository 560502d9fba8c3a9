import HTTPBasics

/// One combined endpoint: where it is served, how it is documented, and the handler that
/// builds its body from upstream calls.
///
/// The gateway serves, documents (OpenAPI) and measures every endpoint of its table the same
/// way, so adding one is a value, not plumbing (the full example, with tests, is
/// `Tests/GatewayTests/Example`):
///
/// ```swift
/// static let book = Endpoint(
///     "/v1/books/:isbn", summary: "A book with the average of its reviews",
///     parameters: [.path("isbn", "the book's ISBN")], optionalParts: ["averageStars"], example: BookPage.example
/// ) { call in
///     let isbn = try call.string("isbn")
///     let bookshop = call.upstream(.bookshop)
///     async let reviews = call.optional("averageStars") { try await bookshop.get("books", isbn, "reviews", as: [Review].self) }
///     let book = try await bookshop.get("books", isbn, as: Book.self)
///     let bookReviews = await reviews
///     return BookPage(book: book, reviews: bookReviews, degraded: call.degraded)
/// }
/// ```
///
/// A thrown `UpstreamFailure` or `GatewayProblem` becomes the matching problem+json answer; a
/// part run through `call.optional` turns into `null` and an entry in `degraded` instead.
struct Endpoint: Sendable {
    let method: HTTPMethod
    /// The route, with `:name` for path parameters: `/v1/people/:id`.
    let path: String
    let summary: String
    let parameters: [EndpointParameter]
    /// Names of the parts that may fail without failing the request, in the order they are
    /// listed in `degraded`.
    let optionalParts: [String]
    /// Fields below the top level that may be null, as dotted paths (`homeworld.population`),
    /// for the OpenAPI schema; optional parts may be null already.
    let nullableFields: [String]
    /// A successful body, encoded, for the OpenAPI document.
    let example: [UInt8]
    /// Runs the handler and encodes what it returns.
    let respond: @Sendable (EndpointCall) async throws -> [UInt8]

    init<Body: Encodable & Sendable>(
        _ path: String,
        summary: String,
        parameters: [EndpointParameter] = [],
        optionalParts: [String] = [],
        nullableFields: [String] = [],
        example: Body,
        handler: @escaping @Sendable (EndpointCall) async throws -> Body
    ) {
        self.method = .get
        self.path = path
        self.summary = summary
        self.parameters = parameters
        self.optionalParts = optionalParts
        self.nullableFields = nullableFields
        self.example = (try? ResponseEncoding.encode(example)) ?? []
        self.respond = { call in try ResponseEncoding.encode(try await handler(call)) }
    }

    /// The declared parameter called `name`.
    func parameter(named name: String) -> EndpointParameter? {
        parameters.first { $0.name == name }
    }
}
