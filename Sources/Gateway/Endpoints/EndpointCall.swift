import HTTPServerCore
import Synchronization

/// What a handler gets for one request: its validated inputs, its upstreams and a record of
/// the optional parts that failed.
///
/// One per request; shared by the request's child tasks, hence the lock around what they record.
final class EndpointCall: Sendable {
    let endpoint: Endpoint
    let scope: RequestScope
    private let context: RequestContext
    private let upstreams: UpstreamRegistry
    private let failedParts = Mutex<[String]>([])

    init(endpoint: Endpoint, context: RequestContext, scope: RequestScope, upstreams: UpstreamRegistry) {
        self.endpoint = endpoint
        self.context = context
        self.scope = scope
        self.upstreams = upstreams
    }

    // MARK: Inputs

    /// The declared integer parameter `name`, validated against its declaration (400 otherwise).
    func integer(_ name: String) throws(GatewayProblem) -> Int {
        let parameter = try declared(name)
        return try parameter.integer(from: value(of: parameter))
    }

    /// The declared text parameter `name`, percent-decoded and validated (400 otherwise).
    func string(_ name: String) throws(GatewayProblem) -> String {
        let parameter = try declared(name)
        return try parameter.string(from: value(of: parameter))
    }

    /// Whether the request carries the declared parameter `name`; a query parameter may be absent.
    func carries(_ name: String) -> Bool {
        guard let parameter = endpoint.parameter(named: name) else { return false }
        return value(of: parameter) != nil
    }

    private func declared(_ name: String) throws(GatewayProblem) -> EndpointParameter {
        guard let parameter = endpoint.parameter(named: name) else {
            throw GatewayProblem(.internalServerError, "parameter \(name) is not declared")
        }
        return parameter
    }

    private func value(of parameter: EndpointParameter) -> String? {
        switch parameter.location {
        case .path: context.parameters[parameter.name]
        case .query: context.query[parameter.name]
        }
    }

    // MARK: Upstreams

    /// The client for `upstream`, bound to this request's id, trace and deadline.
    func upstream(_ upstream: UpstreamDefinition) -> UpstreamClient {
        UpstreamClient(name: upstream.name, upstream: upstreams[upstream.name], scope: scope)
    }

    /// Runs an optional part: its value, or `nil` with `part` listed in `degraded` when it fails.
    func optional<Value: Sendable>(_ part: String, _ body: () async throws -> Value) async -> Value? {
        do {
            return try await body()
        } catch {
            failedParts.withLock { $0.append(part) }
            return nil
        }
    }

    /// The optional parts that failed, in the endpoint's declared order.
    var degraded: [String] {
        let failed = failedParts.withLock { $0 }
        guard !failed.isEmpty else { return [] }
        let declared = endpoint.optionalParts.filter(failed.contains)
        return declared + failed.filter { !declared.contains($0) }
    }
}
