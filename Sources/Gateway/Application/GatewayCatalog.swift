/// The upstreams and combined endpoints a gateway serves: the table a team writes.
///
/// Adding an upstream is one `UpstreamDefinition` (its environment variables follow from its
/// name); adding an endpoint is one `Endpoint`. Both go into this table, which the router,
/// `GET /`, `/openapi.json` and `/metrics` are all built from.
///
/// ```swift
/// let catalog = GatewayCatalog(upstreams: [.weather], endpoints: [.forecast])
/// exit(await GatewayCommand.run(arguments: arguments, environment: environment, catalog: catalog))
/// ```
///
/// The gateway checks the table before it serves (`problems`): a mistake in it is one line at
/// start-up and exit status 2, not a failure on the first request.
public struct GatewayCatalog: Sendable {
    /// Every upstream, in the order `--help`, metrics and readiness list them.
    public let upstreams: [UpstreamDefinition]
    /// Every endpoint, in the order `GET /` and OpenAPI list them.
    public let endpoints: [Endpoint]

    /// A catalog of `upstreams` and the `endpoints` that call them.
    public init(upstreams: [UpstreamDefinition], endpoints: [Endpoint]) {
        self.upstreams = upstreams
        self.endpoints = endpoints
    }

    /// What is wrong with the table, one sentence each; empty when the gateway can serve it.
    ///
    /// Checked: upstream names (letters, digits, `-`; unique), each endpoint's upstreams in the
    /// catalog, its path parameters declared exactly as its path names them, unique routes that
    /// start with `/` and that the router can hold beside each other and the operations routes,
    /// and an example that encodes (as an object without its own `degraded` when it has
    /// optional parts).
    public var problems: [String] {
        var problems: [String] = []
        var names: Set<String> = []
        for upstream in upstreams {
            if upstream.name.isEmpty || !upstream.name.utf8.allSatisfy(Self.isNameByte) {
                problems.append("upstream \(upstream.name.debugDescription) must be named with letters, digits and '-'")
            }
            if !names.insert(upstream.environmentPrefix).inserted {
                problems.append("upstream \(upstream.name) is defined twice (or shares its variables with another)")
            }
        }
        var routes: Set<String> = []
        let operations = OperationRoutes.documentation.map(RouteShape.init)
        var served: [(path: String, shape: RouteShape)] = []
        for endpoint in endpoints {
            let route = "\(endpoint.method.rawValue) \(endpoint.path)"
            if !routes.insert(route).inserted {
                problems.append("endpoint \(route) is defined twice")
            }
            if endpoint.path.first == "/" {
                // The router cannot hold these (its trie refuses them), or would serve another;
                // an endpoint repeated exactly is reported above.
                let shape = RouteShape(RouteDocumentation(endpoint: endpoint))
                let others = operations + served.lazy.filter { ($0.shape.method, $0.path) != (endpoint.method, endpoint.path) }.map(\.shape)
                for other in others {
                    if let clash = shape.clash(with: other) { problems.append("endpoint \(route): \(clash)") }
                }
                served.append((endpoint.path, shape))
            } else {
                problems.append("endpoint \(route): its path must start with /")
            }
            for upstream in endpoint.upstreams where !upstreams.contains(where: { $0.name == upstream }) {
                problems.append("endpoint \(route) uses upstream \(upstream), which the catalog does not define")
            }
            let pathNames = endpoint.path.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
            let declaredPath = endpoint.parameters.filter { $0.location == .path }.map(\.name)
            for name in pathNames where !declaredPath.contains(name) {
                problems.append("endpoint \(route) does not declare its path parameter \(name)")
            }
            if Set(pathNames).count != pathNames.count {
                problems.append("endpoint \(route) names a path parameter twice")
            }
            for name in declaredPath where !pathNames.contains(name) {
                problems.append("endpoint \(route) declares path parameter \(name), which its path lacks")
            }
            if Set(endpoint.optionalParts).count != endpoint.optionalParts.count {
                problems.append("endpoint \(route) declares an optional part twice")
            }
            if endpoint.example == nil {
                problems.append(
                    endpoint.optionalParts.isEmpty
                        ? "endpoint \(route): its example cannot be encoded as JSON"
                        : "endpoint \(route): its body must be a JSON object, to which degraded is added")
            }
            if !endpoint.optionalParts.isEmpty, case .object(let members) = endpoint.typedExample,
               members.count(where: { $0.0 == "degraded" }) > 1 {
                problems.append("endpoint \(route): its body has a member degraded, which the gateway adds; rename it")
            }
        }
        return problems
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
