import HTTPBasics

/// Dispatches requests to handlers by method and path pattern.
///
/// ```swift
/// var router = Router()
/// router.get("/v1/people/:id") { request, context in
///     guard let id = context.parameters["id"] else { … }
///     …
/// }
/// let responder: any HTTPResponder = router
/// ```
///
/// Patterns are literal segments and `:name` parameters. HEAD is answered by the GET handler
/// (the server drops the body). An unknown path gets 404, a known path with another method 405
/// with `Allow`, a parameter or query that does not decode safely 400, all as problem+json with
/// the request path as `instance`. A thrown `HTTPResponseError` becomes its status; any other
/// error becomes a 500 whose detail says nothing about the error.
public struct Router: HTTPResponder {
    public typealias Handler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

    private var trie = RouteTrie()
    private var handlers: [Handler] = []
    /// Every registered route, in registration order.
    public private(set) var routes: [Route] = []

    public init() {}

    /// Registers `handler` for `method` requests whose path matches `pattern`, such as
    /// `/v1/people/:id`. Registering the same method and pattern again replaces the handler.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        trie.insert(pattern: pattern, method: method, handler: handlers.count)
        handlers.append(handler)
        let route = Route(method: method, pattern: pattern)
        if !routes.contains(route) { routes.append(route) }
    }

    /// Registers `handler` for GET requests matching `pattern`.
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) {
        add(.get, pattern, handler)
    }

    /// Registers `handler` for POST requests matching `pattern`.
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) {
        add(.post, pattern, handler)
    }

    /// Registers `handler` for PUT requests matching `pattern`.
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) {
        add(.put, pattern, handler)
    }

    /// Registers `handler` for PATCH requests matching `pattern`.
    public mutating func patch(_ pattern: String, _ handler: @escaping Handler) {
        add(.patch, pattern, handler)
    }

    /// Registers `handler` for DELETE requests matching `pattern`.
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) {
        add(.delete, pattern, handler)
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        guard let match = trie.match(request.path) else {
            return .problem(.notFound, detail: "No resource exists at this path.", instance: request.path)
        }
        let methods = trie.nodes[match.node].methods
        let entry = methods.first { $0.method == request.method }
            ?? (request.method == .head ? methods.first { $0.method == .get } : nil)
        guard let entry else {
            var headers = HTTPHeaders()
            headers.add("Allow", Self.allowedMethods(methods))
            return .problem(
                .methodNotAllowed, detail: "This resource does not support the request method.",
                instance: request.path, headers: headers)
        }
        var parameters: [(name: String, value: String)] = []
        parameters.reserveCapacity(match.parameters.count)
        for parameter in match.parameters {
            guard let value = PercentDecoding.decodePathSegment(parameter.raw) else {
                return .problem(.badRequest, detail: "Path parameter \(parameter.name) is not valid.", instance: request.path)
            }
            parameters.append((parameter.name, value))
        }
        guard let query = QueryParameters(decoding: request.query) else {
            return .problem(.badRequest, detail: "The query string is not validly encoded.", instance: request.path)
        }
        let context = RequestContext(parameters: PathParameters(parameters), query: query)
        do {
            return try await handlers[entry.handler](request, context)
        } catch let error as any HTTPResponseError {
            return .problem(error.status, detail: error.detail, instance: request.path, headers: error.headers)
        } catch {
            return .problem(.internalServerError, detail: "The server failed to handle the request.", instance: request.path)
        }
    }

    /// The `Allow` value: registered methods in order, with HEAD after GET when only GET is registered.
    private static func allowedMethods(_ methods: [(method: HTTPMethod, handler: Int)]) -> String {
        var names: [String] = []
        let hasHead = methods.contains { $0.method == .head }
        for entry in methods {
            names.append(entry.method.rawValue)
            if entry.method == .get && !hasHead { names.append(HTTPMethod.head.rawValue) }
        }
        return names.joined(separator: ", ")
    }
}
