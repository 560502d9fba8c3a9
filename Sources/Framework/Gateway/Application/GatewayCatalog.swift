import UpstreamKit

/// The upstreams, combined endpoints and proxy routes a gateway serves: the table a team writes.
///
/// Adding an upstream is one `UpstreamDefinition` (its environment variables follow from its
/// name); adding an endpoint is one `Endpoint`, a pass-through route one `ProxyRoute`. They go
/// into this table, which the router, `GET /`, `/openapi.json` and `/metrics` are all built from.
///
/// ```swift
/// GatewayCommand.main(catalog: GatewayCatalog(upstreams: [.weather], endpoints: [.forecast]))
/// ```
///
/// The gateway checks the table before it serves (`problems`): a mistake in it is one line at
/// start-up and exit status 2, not a failure on the first request.
public struct GatewayCatalog: Sendable {
    /// Every upstream, in the order `--help`, metrics and readiness list them.
    public let upstreams: [UpstreamDefinition]
    /// Every endpoint, in the order `GET /` and OpenAPI list them.
    public let endpoints: [Endpoint]
    /// Every pass-through route, listed by `GET /` and OpenAPI after the endpoints.
    public let proxies: [ProxyRoute]
    /// Upstreams the endpoints file may name that are set up only when it does (`CatalogSwitch`
    /// off): the others' variables are accepted and ignored.
    let upstreamsOnOffer: [UpstreamDefinition]

    /// A catalog of `upstreams`, the `endpoints` that call them and the `proxies` that pass
    /// requests on to them.
    public init(upstreams: [UpstreamDefinition], endpoints: [Endpoint], proxies: [ProxyRoute] = []) {
        self.init(upstreams: upstreams, endpoints: endpoints, proxies: proxies, upstreamsOnOffer: [])
    }

    init(upstreams: [UpstreamDefinition], endpoints: [Endpoint], proxies: [ProxyRoute] = [], upstreamsOnOffer: [UpstreamDefinition]) {
        self.upstreams = upstreams
        self.endpoints = endpoints
        self.proxies = proxies
        self.upstreamsOnOffer = upstreamsOnOffer
    }

    /// The upstreams a route may name: those served and those on offer.
    var availableUpstreams: [UpstreamDefinition] { upstreams + upstreamsOnOffer }

    /// What is wrong with the table, one sentence each; empty when the gateway can serve it.
    ///
    /// Checked: upstream names (letters, digits, `-`; unique), each endpoint's upstreams in the
    /// catalog, its path parameters declared exactly as its path names them, unique routes that
    /// start with `/` and that the router can hold beside each other and the operations routes,
    /// and an example that encodes (as an object without its own `degraded` when it has
    /// optional parts); each proxy route's upstream in the catalog, and a prefix of its own that
    /// is a plain path (see `proxyPathProblem`) and takes no request from the operations routes.
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
            if endpoint.example == nil, endpoint.streamed == nil {
                problems.append(
                    endpoint.optionalParts.isEmpty
                        ? "endpoint \(route): its example cannot be encoded as JSON"
                        : "endpoint \(route): its body must be a JSON object, to which degraded is added")
            }
            if !endpoint.optionalParts.isEmpty, case .object(let members) = endpoint.typedExample,
               members.count(where: { $0.0 == "degraded" }) > 1 {
                problems.append("endpoint \(route): its body has a member degraded, which the gateway adds; rename it")
            }
            if let problem = endpoint.authentication.problem { problems.append("endpoint \(route): \(problem)") }
        }
        var prefixes: Set<String> = []
        for proxy in proxies {
            if let problem = Self.proxyPathProblem(proxy.path) {
                problems.append("proxy \(proxy.path): \(problem)")
            } else if let taken = OperationRoutes.documentation.first(where: { $0.path.hasPrefix(proxy.path + "/") || $0.path == proxy.path }) {
                problems.append("proxy \(proxy.path): it would take requests for the operations route \(taken.path)")
            }
            if !prefixes.insert(proxy.path).inserted {
                problems.append("proxy \(proxy.path) is defined twice")
            }
            if !upstreams.contains(where: { $0.name == proxy.upstream }) {
                problems.append("proxy \(proxy.path) uses upstream \(proxy.upstream), which the catalog does not define")
            }
            if let problem = proxy.authentication.problem { problems.append("proxy \(proxy.path): \(problem)") }
        }
        return problems
    }

    /// Why `path` cannot be a proxy prefix, or nil: it must start with `/`, not be `/` (which would
    /// take every path, the operations routes' too) nor end with `/` (`/ct` serves `/ct/` too),
    /// and be segments of what a client sends unencoded in a path (RFC 3986 `pchar`, with `%`
    /// escapes), none empty, `.` or `..`, none a `:name` parameter.
    static func proxyPathProblem(_ path: String) -> String? {
        guard path.first == "/" else { return "its path must start with /" }
        guard path != "/" else { return "the root / would take every path, the operations routes' too" }
        guard path.last != "/" else { return "its path must not end with /; \(path.dropLast()) serves \(path) and below too" }
        for segment in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if segment.first == ":" || segment.contains("{") {
                return "its path has no parameters; every path below it is passed on"
            }
            if segment.isEmpty || !segment.utf8.allSatisfy(isPathByte) {
                return Self.plainPath
            }
        }
        // Escapes that decode, and no `.` or `..` segment, even encoded: what a proxied target must be.
        return (try? EncodedTarget(path: path, query: nil)) == nil ? Self.plainPath : nil
    }

    private static let plainPath = "its path must be segments of letters, digits, %XX escapes and -._~!$&'()*+,;=:@, none empty, . or .."

    /// RFC 3986 `pchar` bytes, `%` for its escapes.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        isNameByte(byte) || "._~!$&'()*+,;=:@%".utf8.contains(byte)
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
