import CallerIdentity
import HTTP1Server
import HTTPBasics
import JSONCoding
import Synchronization

/// What a handler gets for one request: its validated inputs, the client's request, its
/// upstreams and a record of the optional parts that failed.
///
/// One per request; shared by the request's child tasks, hence the lock around what they record.
/// Reading a parameter, upstream or optional part the endpoint does not declare is a programming
/// error, answered 500 with a detail that names it, so the first test of the endpoint shows it.
public final class EndpointCall: Sendable {
    // What the endpoint declares, rather than the whole `Endpoint`, whose copy would retain and
    // release each of its documentation fields on every request.
    private let parameters: [EndpointParameter]
    private let declaredUpstreams: [String]
    private let optionalParts: [String]
    let scope: RequestScope
    /// The client's request as the server read it: headers and body are only looked at when a
    /// handler asks, so endpoints that never do pay nothing for them.
    private let request: HTTPRequest
    private let match: RouteMatch
    private let upstreams: UpstreamRegistry
    /// Where the endpoint's warnings go (the gateway's event log).
    let events: EventLog
    private let verifiedIdentity: Identity?
    /// `Authorization` for upstreams that take the signed-in user's token; nil without a session.
    private let userAuthorization: String?
    private let failedParts = Mutex<[String]>([])
    /// Whether the handler read the request's fields or body, so that its answer may depend on
    /// more than the target.
    private let readsRequest = Atomic<Bool>(false)

    init(
        endpoint: Endpoint, request: HTTPRequest, match: RouteMatch, scope: RequestScope, upstreams: UpstreamRegistry, events: EventLog,
        identity: Identity? = nil, userAccessToken: String? = nil
    ) {
        verifiedIdentity = identity
        userAuthorization = userAccessToken.map { "Bearer " + $0 }
        parameters = endpoint.parameters
        declaredUpstreams = endpoint.upstreams
        optionalParts = endpoint.optionalParts
        self.request = request
        self.match = match
        self.scope = scope
        self.upstreams = upstreams
        self.events = events
    }

    // MARK: Declared parameters

    /// The declared integer parameter `name`, validated against its declaration (400 otherwise).
    public func integer(_ name: String) throws(GatewayProblem) -> Int {
        let parameter = try declared(name)
        return try parameter.integer(from: value(of: parameter))
    }

    /// The declared text parameter `name`, percent-decoded and validated (400 otherwise).
    public func string(_ name: String) throws(GatewayProblem) -> String {
        let parameter = try declared(name)
        return try parameter.string(from: value(of: parameter))
    }

    /// The declared optional text parameter `name`: nil when the query does not have it, else
    /// validated like `string(_:)`.
    public func optionalString(_ name: String) throws(GatewayProblem) -> String? {
        let parameter = try declared(name)
        guard let value = value(of: parameter) else { return nil }
        return try parameter.string(from: value)
    }

    /// Whether the request carries the declared parameter `name`; a query parameter may be absent.
    func carries(_ name: String) -> Bool {
        guard let parameter = parameter(named: name) else { return false }
        return value(of: parameter) != nil
    }

    private func parameter(named name: String) -> EndpointParameter? {
        parameters.first { $0.name == name }
    }

    private func declared(_ name: String) throws(GatewayProblem) -> EndpointParameter {
        guard let parameter = parameter(named: name) else {
            throw GatewayProblem(.internalServerError, "parameter \(name) is not declared")
        }
        return parameter
    }

    private func value(of parameter: EndpointParameter) -> String? {
        switch parameter.location {
        case .path: match.parameters[parameter.name]
        case .query: match.query[parameter.name]
        }
    }

    // MARK: The client's request

    /// The request's method (HEAD for a HEAD request to a GET endpoint).
    public var method: HTTPMethod { request.method }

    /// The value of the client's first header field `name` (any case), such as `Authorization` to pass on.
    public func header(_ name: String) -> String? {
        readsRequest.store(true, ordering: .relaxed)
        return request.headers[name]
    }

    /// The value of the client's cookie `name`, from its `Cookie` header fields.
    public func cookie(_ name: String) -> String? {
        readsRequest.store(true, ordering: .relaxed)
        for field in request.headers where field.name.equalsIgnoringASCIICase("Cookie") {
            for pair in field.value.split(separator: ";") {
                let trimmed = pair.trimmingWhitespace
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
                return String(trimmed[trimmed.index(after: equals)...])
            }
        }
        return nil
    }

    /// Who is calling: the claims of the request's verified bearer token; nil when the gateway
    /// checks no tokens or the endpoint requires none. Pass `identity?.subject` upstream to act
    /// for the caller.
    public var identity: Identity? {
        // The answer may now differ per caller, so it must not be kept for another.
        readsRequest.store(true, ordering: .relaxed)
        return verifiedIdentity
    }

    /// The decoded query, every field (declared parameters are better read with `integer(_:)`
    /// and `string(_:)`, which validate them).
    public var query: QueryParameters { match.query }

    /// The request body decoded from JSON; 400 when it is missing or not a valid `Value`.
    public func body<Value: Decodable>(as type: Value.Type = Value.self) throws(GatewayProblem) -> Value {
        readsRequest.store(true, ordering: .relaxed)
        guard !request.body.isEmpty else {
            throw GatewayProblem(.badRequest, "the request needs a JSON body")
        }
        do {
            return try JSONByteDecoder().decode(Value.self, from: request.body)
        } catch {
            // The decoder's description names the failure and the coding path, never body content.
            throw GatewayProblem(.badRequest, "the request body is not valid: \(error)")
        }
    }

    /// Whether the handler read the client's fields, cookies or body: then its answer is never
    /// reused for another request, whatever its parts allow.
    var readClientInput: Bool { readsRequest.load(ordering: .relaxed) }

    // MARK: Upstreams

    /// The client for `upstream`, bound to this request's id, trace and deadline; a 500 when the
    /// endpoint does not declare `upstream`.
    public func upstream(_ upstream: UpstreamDefinition) throws(GatewayProblem) -> UpstreamClient {
        guard declaredUpstreams.contains(upstream.name), let configured = upstreams[upstream.name] else {
            throw GatewayProblem(.internalServerError, "upstream \(upstream.name) is not declared by this endpoint")
        }
        return UpstreamClient(
            name: upstream.name, upstream: configured, scope: scope, userAuthorization: configured.configuration.takesUserToken ? userAuthorization : nil)
    }

    /// Runs an optional part: its value, or `nil` with `part` listed in `degraded` when it fails.
    /// A part the endpoint does not declare fails the request with a 500.
    // Always inlined, with `body`, into the handler: a call across the module boundary would
    // give this and `body` async frames of their own in the part's child task.
    @inline(__always)
    public func optional<Value: Sendable>(_ part: String, _ body: () async throws -> Value) async throws(GatewayProblem) -> Value? {
        try checkDeclared(optionalPart: part)
        do {
            return try await body()
        } catch {
            failedParts.withLock { $0.append(part) }
            return nil
        }
    }

    /// Lists the declared optional `part` in `degraded` without running it, for a part that
    /// failed before it could start (a file endpoint's call whose dependency failed).
    func recordFailure(ofOptionalPart part: String) throws(GatewayProblem) {
        try checkDeclared(optionalPart: part)
        failedParts.withLock { $0.append(part) }
    }

    private func checkDeclared(optionalPart part: String) throws(GatewayProblem) {
        guard optionalParts.contains(part) else {
            throw GatewayProblem(.internalServerError, "optional part \(part) is not declared")
        }
    }

    /// The optional parts that failed, in the endpoint's declared order.
    var degraded: [String] {
        let failed = failedParts.withLock { $0 }
        guard !failed.isEmpty else { return [] }
        return optionalParts.filter(failed.contains)
    }
}
