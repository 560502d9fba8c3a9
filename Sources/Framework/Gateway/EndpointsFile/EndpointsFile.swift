import Foundation
import HTTPBasics
import JSONCoding
import UpstreamKit

/// The upstreams, combined endpoints and proxy routes an operator defines in a JSON file
/// (`GATEWAY_ENDPOINTS_FILE`, format in docs/ENDPOINTS-FILE.md), checked and compiled at start-up.
///
/// Every fault found is one `EndpointsFileError`: invalid JSON with line and column, an unknown
/// field, call, parameter or upstream, a cycle between calls, a path parameter missing from the
/// path, a route clashing with another.
struct EndpointsFile: Sendable {
    let upstreams: [UpstreamDefinition]
    let endpoints: [Endpoint]
    let proxies: [ProxyRoute]
    /// The bytes compiled, by which a reload tells a file that has not changed.
    let contents: [UInt8]

    /// Larger files are refused before they are parsed.
    static let maximumSize = 1 << 20
    /// Deeper nesting is refused by the parser, which bounds every recursion over the file.
    static let maximumDepth = 32
    /// Routes are checked against each other at start-up, so their number is bounded.
    static let maximumEndpoints = 1000
    /// Each upstream has its own connections, breaker and metrics, so their number is bounded.
    static let maximumUpstreams = 100
    /// A request no exact route serves is compared with every prefix, so their number is bounded.
    static let maximumProxies = 100

    /// Reads and compiles the file at `path`; its routes must not clash with `catalog`'s or
    /// the operation routes.
    static func load(path: String, alongside catalog: GatewayCatalog) throws(EndpointsFileError) -> EndpointsFile {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw EndpointsFileError("\(path): cannot be opened")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            throw EndpointsFileError("\(path): cannot be read")
        }
        do {
            return try EndpointsFile(parsing: Array(data), alongside: catalog)
        } catch {
            throw error.within(path)
        }
    }

    /// Compiles the file's `bytes`.
    init(parsing bytes: [UInt8], alongside catalog: GatewayCatalog) throws(EndpointsFileError) {
        guard bytes.count <= Self.maximumSize else {
            throw EndpointsFileError("the file is larger than \(Self.maximumSize) bytes")
        }
        let root: JSONValue
        do {
            root = try JSONReader.read(bytes, maximumDepth: Self.maximumDepth) { JSONValue($0.root, in: $0) }
        } catch {
            throw EndpointsFileError("invalid JSON\(Self.location(of: error.byteOffset, in: bytes)): \(error.message)")
        }
        let file = try FileObject(root, place: "the file", fields: ["upstreams", "endpoints", "proxies"])
        let upstreamMembers = try file.members("upstreams")
        guard upstreamMembers.count <= Self.maximumUpstreams else {
            throw EndpointsFileError("the file defines more than \(Self.maximumUpstreams) upstreams")
        }
        var upstreams: [UpstreamDefinition] = []
        for (name, value) in upstreamMembers {
            let upstream = try Self.upstream(named: name, value)
            let known = catalog.availableUpstreams + upstreams
            if let clash = known.first(where: { $0.environmentPrefix == upstream.environmentPrefix }) {
                throw EndpointsFileError("upstream \(name) clashes with upstream \(clash.name) (both use \(upstream.environmentPrefix)* variables)")
            }
            upstreams.append(upstream)
        }
        guard case .array(let definitions) = file["endpoints"] ?? .array([]) else {
            throw EndpointsFileError("endpoints must be an array")
        }
        guard definitions.count <= Self.maximumEndpoints else {
            throw EndpointsFileError("the file defines more than \(Self.maximumEndpoints) endpoints")
        }
        var routes = (catalog.endpoints.map { RouteDocumentation(endpoint: $0) } + OperationRoutes.documentation).map(RouteShape.init)
        var endpoints: [Endpoint] = []
        for (position, definition) in definitions.enumerated() {
            let endpoint = try EndpointDefinition(definition, position: position, upstreams: catalog.availableUpstreams + upstreams).endpoint
            let route = RouteDocumentation(endpoint: endpoint)
            let shape = RouteShape(route)
            if let clash = routes.lazy.compactMap({ shape.clash(with: $0) }).first {
                throw EndpointsFileError(clash).within("endpoint \(route.method) \(route.openAPIPath)")
            }
            routes.append(shape)
            endpoints.append(endpoint)
        }
        guard case .array(let proxyDefinitions) = file["proxies"] ?? .array([]) else {
            throw EndpointsFileError("proxies must be an array")
        }
        guard proxyDefinitions.count <= Self.maximumProxies else {
            throw EndpointsFileError("the file defines more than \(Self.maximumProxies) proxies")
        }
        var proxies: [ProxyRoute] = []
        for (position, definition) in proxyDefinitions.enumerated() {
            proxies.append(try Self.proxy(definition, position: position, upstreams: catalog.availableUpstreams + upstreams))
        }
        // What the gateway checks of every catalog at start-up (a proxy's path, or one defined
        // twice), the file's part of it reported here so that the line names the file.
        let known = Set(catalog.problems)
        let combined = GatewayCatalog(
            upstreams: catalog.availableUpstreams + upstreams, endpoints: catalog.endpoints + endpoints, proxies: catalog.proxies + proxies)
        if let problem = combined.problems.first(where: { !known.contains($0) }) {
            throw EndpointsFileError(problem)
        }
        self.upstreams = upstreams
        self.endpoints = endpoints
        self.proxies = proxies
        contents = bytes
    }

    /// One entry of `proxies`: a path, an upstream of the file or the catalog, a summary,
    /// whether a client token, with which scopes, is required (when a key set is configured), and
    /// whether the upstream's credentials go with relayed requests.
    private static func proxy(_ value: JSONValue, position: Int, upstreams: [UpstreamDefinition]) throws(EndpointsFileError) -> ProxyRoute {
        let object = try FileObject(
            value, place: "proxies[\(position)]",
            fields: ["path", "upstream", "summary", "authentication", "scopes", "rate_limit", "upstream_credentials", "max_request_bytes"])
        let path = try object.requiredString("path")
        let name = try object.requiredString("upstream")
        let summary = try object.string("summary")
        guard let upstream = upstreams.first(where: { $0.name == name }) else {
            throw EndpointsFileError.unknownUpstream(name, among: upstreams).within("proxy \(path)")
        }
        let credentials: ProxyRoute.UpstreamCredentials
        switch try object.string("upstream_credentials") {
        case nil, "withhold": credentials = .withheld
        case "send": credentials = .sent
        default: throw EndpointsFileError("proxy \(path): upstream_credentials must be \"withhold\" or \"send\"")
        }
        var maximumRequestBytes: Int? = ProxyRoute.defaultMaximumRequestBytes
        if let limit = try object.integer("max_request_bytes") {
            guard limit >= 0 else { throw EndpointsFileError("proxy \(path): max_request_bytes must be 0 (no limit) or more") }
            maximumRequestBytes = limit == 0 ? nil : limit
        }
        return ProxyRoute(path, upstream: upstream, summary: summary, authentication: try EndpointDefinition.authentication(object),
            rateLimit: try EndpointDefinition.rateLimit(object), upstreamCredentials: credentials, maximumRequestBytes: maximumRequestBytes)
    }

    /// ` at line L, column C` for a byte offset, counting columns in bytes from 1.
    static func location(of offset: Int?, in bytes: [UInt8]) -> String {
        guard let offset else { return "" }
        let prefix = bytes[..<min(offset, bytes.count)]
        let line = prefix.count { $0 == UInt8(ascii: "\n") } + 1
        let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return " at line \(line), column \(offset - lineStart + 1)"
    }

    private static func upstream(named name: String, _ value: JSONValue) throws(EndpointsFileError) -> UpstreamDefinition {
        let place = "upstream \(name)"
        guard Reference.isName(name) else {
            throw EndpointsFileError("\(place.debugDescription): an upstream name is 1 to 64 letters, digits, _ or -")
        }
        let object = try FileObject(value, place: place, fields: ["url", "timeout_ms", "max_redirects", "breaker_server_errors", "cache", "user_token"])
        let url = try object.requiredString("url")
        do {
            _ = try BaseURL(url)
        } catch {
            throw EndpointsFileError("\(place): url is not a valid base URL (\(error.reason))")
        }
        var timeout = Duration.seconds(5)
        if let milliseconds = try object.integer("timeout_ms") {
            guard (1...600_000).contains(milliseconds) else { throw EndpointsFileError("\(place): timeout_ms must be from 1 to 600000") }
            timeout = .milliseconds(milliseconds)
        }
        let maximumRedirects = try object.integer("max_redirects") ?? 5
        guard (0...20).contains(maximumRedirects) else { throw EndpointsFileError("\(place): max_redirects must be from 0 to 20") }
        let breakerCountsServerErrors = try object.bool("breaker_server_errors") ?? false
        var cache = CacheSettings.standard
        if let definition = object["cache"] { cache = try CacheDefinition.compile(definition, place: "\(place) cache") }
        return UpstreamDefinition(
            name: name, defaultBaseURL: url, defaultTimeout: timeout, defaultMaximumRedirects: maximumRedirects,
            defaultBreakerCountsServerErrors: breakerCountsServerErrors, cache: cache, userToken: try object.bool("user_token") ?? false)
    }
}
