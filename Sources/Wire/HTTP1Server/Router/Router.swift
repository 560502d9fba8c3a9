import ASCIISyntax
public import HTTP1
public import HTTPBasics
/// Dispatches requests to handlers by method and path pattern, giving each handler the request,
/// what matching it found, and the request's `Context`: whatever the server's own responder made
/// for the request (the gateway's request scope with its id, trace and deadline), passed
/// explicitly, so that no handler has to look for it.
///
/// ```swift
/// var router = Router<Void>()
/// router.get("/v1/people/:id") { request, match, _ in
///     guard let id = match.parameters["id"] else { … }
///     …
/// }
/// let responder: any HTTPResponder = router
/// ```
///
/// A `Router<Void>` is a responder itself; with another context, the responder that makes the
/// context calls `respond(to:context:)`.
///
/// Patterns are literal segments and `:name` parameters. HEAD is answered by the GET handler
/// (the server drops the body). An unknown path gets 404, a known path with another method 405
/// with `Allow`, a CONNECT to anything but a route or an `OPTIONS *` 405 with every method
/// served in `Allow`, a parameter or query that does not decode safely 400, all as problem+json with
/// the request path as `instance`. A thrown `HTTPResponseError` becomes its status; any other
/// error becomes a 500 whose detail says nothing about the error.
///
/// A prefix route (`addPrefix`) serves every method but CONNECT for its prefix and every path
/// below it, which no exact route serves: an exact route wins for the methods it has, and among
/// prefixes the longest wins.
public struct Router<Context: Sendable>: Sendable {
    /// Serves a request of an exact route.
    public typealias Handler = @Sendable (HTTPRequest, RouteMatch, Context) async throws -> HTTPResponse
    /// Serves a request below a prefix; it reads the query raw, as `request.query`.
    public typealias PrefixHandler = @Sendable (HTTPRequest, PrefixMatch, Context) async throws -> HTTPResponse

    private var trie = RouteTrie()
    private var handlers: [Handler] = []
    /// Longest prefix first, so that the first one a path lies below is the longest.
    private var prefixRoutes: [PrefixRoute] = []

    private struct PrefixRoute: Sendable {
        let prefix: String
        /// The bytes a path must start with, followed by its end or `/`: empty for the prefix `/`.
        let bytes: [UInt8]
        let streamsBodies: Bool
        let handler: PrefixHandler
    }
    /// Every registered route, in registration order.
    public private(set) var routes: [Route] = []

    /// A router with no routes.
    public init() {}

    /// Registers `handler` for `method` requests whose path matches `pattern`, such as
    /// `/v1/people/:id`. Registering the same method and pattern again replaces the handler.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        trie.insert(pattern: pattern, method: method, handler: handlers.count)
        handlers.append(handler)
        let route = Route(method: method, pattern: pattern)
        if !routes.contains(route) { routes.append(route) }
    }

    /// Registers `handler` for requests of every method but CONNECT whose path is `prefix` or lies
    /// below it (`/ct` serves `/ct`, `/ct/` and `/ct/a/b`, not `/ctx`) and that no exact route
    /// serves with their method. The prefix is matched byte for byte, not decoded, and its
    /// handler gets the undecoded rest of the path; the query is not decoded either, so an
    /// invalid one is the handler's to judge. Registering the same prefix again replaces the handler.
    ///
    /// - Parameters:
    ///   - prefix: starts with `/`; `/` alone serves every path, any other prefix does not end with `/`.
    ///   - streamsBodies: the handler reads request bodies as they arrive (`HTTPRequest.bodyStream`)
    ///     and holds them to its own limit; by default the server reads them whole first.
    public mutating func addPrefix(_ prefix: String, streamsBodies: Bool = false, _ handler: @escaping PrefixHandler) {
        precondition(prefix.first == "/" && (prefix == "/" || prefix.last != "/"), "route prefix \(prefix) must start and must not end with /")
        let route = PrefixRoute(prefix: prefix, bytes: prefix == "/" ? [] : Array(prefix.utf8), streamsBodies: streamsBodies, handler: handler)
        if let existing = prefixRoutes.firstIndex(where: { $0.prefix == prefix }) {
            prefixRoutes[existing] = route
        } else {
            let position = prefixRoutes.firstIndex { $0.bytes.count < route.bytes.count } ?? prefixRoutes.endIndex
            prefixRoutes.insert(route, at: position)
        }
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

    /// The answer of the handler whose route `request` matches, given `context`, or the router's
    /// own 404, 405 or 400.
    public func respond(to request: HTTPRequest, context: Context) async -> HTTPResponse {
        // The matching runs in a synchronous function so that its temporaries stay on the thread's
        // stack: only the handler and its context live in this async frame, which every request
        // in flight keeps allocated while its handler waits.
        switch dispatch(request) {
        case .answered(let response):
            return response
        case .handled(let handler, let match):
            do {
                return try await handler(request, match, context)
            } catch {
                return Self.problem(for: error, path: request.path)
            }
        case .prefixed(let index):
            return await respond(to: request, belowPrefixAt: index, context: context)
        }
    }

    /// True when the request goes to a prefix route added with `streamsBodies`: no exact route
    /// serves its path and method.
    public func streamsBody(of head: RequestHead) -> Bool {
        guard prefixRoutes.contains(where: \.streamsBodies) else { return false }
        if let match = trie.match(head.path), trie.nodes[match.node].methods.contains(where: { $0.method == head.method }) { return false }
        guard let index = prefixRouteIndex(for: head.path) else { return false }
        return prefixRoutes[index].streamsBodies
    }

    /// What matching a request found: an answer already (404, 405, 400), the handler to run, or
    /// the index of the prefix route that serves it.
    private enum Dispatch {
        case answered(HTTPResponse)
        case handled(Handler, RouteMatch)
        case prefixed(Int)
    }

    /// Runs the prefix route at `index`. Never inlined: its match and handler would otherwise
    /// enlarge the async frame of `respond`, which every request in flight keeps.
    ///
    /// A streaming route's handler runs in a child task. Its answer may be a stream or a protocol
    /// switch that the connection's task serves for hours, and a task keeps the allocator slabs
    /// of its deepest moment for its whole life: the child's, grown by the upstream call, are
    /// freed when it returns, so an idle event stream holds only the frames that wait on it.
    @inline(never)
    private func respond(to request: HTTPRequest, belowPrefixAt index: Int, context: Context) async -> HTTPResponse {
        let route = prefixRoutes[index]
        let match = PrefixMatch(prefix: route.prefix, remainder: Substring(request.path.utf8.dropFirst(route.bytes.count)))
        guard route.streamsBodies else { return await Self.run(route.handler, request, match, context) }
        async let response = Self.run(route.handler, request, match, context)
        return await response
    }

    private static func run(_ handler: PrefixHandler, _ request: HTTPRequest, _ match: PrefixMatch, _ context: Context) async -> HTTPResponse {
        do {
            return try await handler(request, match, context)
        } catch {
            return problem(for: error, path: request.path)
        }
    }

    private func dispatch(_ request: HTTPRequest) -> Dispatch {
        guard let match = trie.match(request.path) else {
            if request.method == .connect || (request.method == .options && request.path == "*") {
                return .answered(refusalOfServerWideRequest())
            }
            if let index = prefixRouteIndex(for: request.path) { return .prefixed(index) }
            return .answered(.problem(.notFound, detail: "No resource exists at this path.", instance: request.path))
        }
        let methods = trie.nodes[match.node].methods
        let entry = methods.first { $0.method == request.method }
            ?? (request.method == .head ? methods.first { $0.method == .get } : nil)
        guard let entry else {
            if request.method != .connect, let index = prefixRouteIndex(for: request.path) { return .prefixed(index) }
            var headers = HTTPHeaders()
            headers.add("Allow", Self.allowedMethods(methods.map(\.method)))
            return .answered(.problem(
                .methodNotAllowed, detail: "This resource does not support the request method.",
                instance: request.path, headers: headers))
        }
        var parameters: [(name: String, value: String)] = []
        parameters.reserveCapacity(match.parameters.count)
        for parameter in match.parameters {
            guard let value = PercentDecoding.decodePathSegment(parameter.raw) else {
                return .answered(.problem(
                    .badRequest, detail: "Path parameter \(parameter.name) is not valid.", instance: request.path))
            }
            parameters.append((parameter.name, value))
        }
        guard let query = QueryParameters(decoding: request.query) else {
            return .answered(.problem(.badRequest, detail: "The query string is not validly encoded.", instance: request.path))
        }
        return .handled(handlers[entry.handler], RouteMatch(parameters: PathParameters(parameters), query: query))
    }

    /// The methods requests for `path` are served with, as `Allow` lists them: an exact route's
    /// (HEAD after GET when only GET is registered), then, when the path is or lies below a prefix
    /// route, the usual methods it serves (`PrefixMatch.listedMethods`) that the exact route lacks; empty when
    /// no route serves the path. For a CORS preflight, which asks about a path without running
    /// its handler.
    public func allowedMethods(at path: String) -> [HTTPMethod] {
        var methods: [HTTPMethod] = []
        if let match = trie.match(path) { methods = Self.withHead(trie.nodes[match.node].methods.map(\.method)) }
        if prefixRouteIndex(for: path) != nil {
            methods += PrefixMatch.listedMethods.filter { !methods.contains($0) }
        }
        return methods
    }


    /// The index of the longest prefix route that `path` is or lies below, or nil.
    private func prefixRouteIndex(for path: String) -> Int? {
        guard !prefixRoutes.isEmpty else { return nil }
        var path = path
        return path.withUTF8 { bytes in
            prefixRoutes.firstIndex { route in
                bytes.count >= route.bytes.count && bytes.starts(with: route.bytes)
                    && (bytes.count == route.bytes.count || bytes[route.bytes.count] == ASCII.slash)
            }
        }
    }

    /// A thrown `HTTPResponseError` answers its own status; anything else a 500 that reveals nothing.
    private static func problem(for error: any Error, path: String) -> HTTPResponse {
        if let error = error as? any HTTPResponseError {
            return error.response(instance: path)
        }
        return .problem(.internalServerError, detail: "The server failed to handle the request.", instance: path)
    }

    /// The answer to a CONNECT (a tunnel to `host:port`, or to a path no route has) or an
    /// `OPTIONS *` (the server as a whole). Routes serve paths only, so it is 405, as nginx
    /// answers CONNECT, with every method some route serves in `Allow`. The target is not echoed
    /// as `instance`, which must be a URI reference.
    private func refusalOfServerWideRequest() -> HTTPResponse {
        var methods: [HTTPMethod] = []
        for route in routes where !methods.contains(route.method) { methods.append(route.method) }
        var headers = HTTPHeaders()
        headers.add("Allow", Self.allowedMethods(methods))
        return .problem(
            .methodNotAllowed, detail: "The server opens no tunnels and answers only requests for a path.",
            headers: headers)
    }

    /// The `Allow` value: registered methods in order, with HEAD after GET when only GET is registered.
    private static func allowedMethods(_ methods: [HTTPMethod]) -> String {
        withHead(methods).map(\.rawValue).joined(separator: ", ")
    }

    /// `methods` in order, with HEAD after GET when only GET is among them: the router answers
    /// HEAD with the GET handler.
    private static func withHead(_ methods: [HTTPMethod]) -> [HTTPMethod] {
        guard !methods.contains(.head) else { return methods }
        var listed: [HTTPMethod] = []
        for method in methods {
            listed.append(method)
            if method == .get { listed.append(.head) }
        }
        return listed
    }
}

extension Router: HTTPResponder where Context == Void {
    /// The answer to `request`, for a router whose handlers need no context.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await respond(to: request, context: ())
    }
}
