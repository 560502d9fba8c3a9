/// What a reload changes between the catalog serving and the one read: the routes added and
/// removed, and which upstreams keep their running objects (connections, breaker, cookies,
/// tokens, metrics) because their definition is the same.
///
/// The environment of a running process cannot change, so an upstream whose definition is the
/// same has the same configuration: only the endpoints file can change one.
struct CatalogChange: Equatable, Sendable {
    /// Routes the new catalog serves and the old one did not: `GET /v1/menu`, `proxy /ct`.
    var addedRoutes: [String] = []
    /// Routes the old catalog served and the new one does not.
    var removedRoutes: [String] = []
    /// Upstreams defined alike in both: their running objects serve on.
    var keptUpstreams: [String] = []
    /// Upstreams only in the new catalog.
    var addedUpstreams: [String] = []
    /// Upstreams in both whose definitions differ (a base URL, say): set up anew.
    var replacedUpstreams: [String] = []
    /// Upstreams only in the old catalog.
    var removedUpstreams: [String] = []

    init(
        addedRoutes: [String] = [], removedRoutes: [String] = [], keptUpstreams: [String] = [], addedUpstreams: [String] = [],
        replacedUpstreams: [String] = [], removedUpstreams: [String] = []
    ) {
        self.addedRoutes = addedRoutes
        self.removedRoutes = removedRoutes
        self.keptUpstreams = keptUpstreams
        self.addedUpstreams = addedUpstreams
        self.replacedUpstreams = replacedUpstreams
        self.removedUpstreams = removedUpstreams
    }

    /// The change from `old` to `new`, each list in the order of the catalog it comes from.
    init(from old: GatewayCatalog, to new: GatewayCatalog) {
        let (oldRoutes, newRoutes) = (Self.routes(of: old), Self.routes(of: new))
        addedRoutes = newRoutes.filter { !oldRoutes.contains($0) }
        removedRoutes = oldRoutes.filter { !newRoutes.contains($0) }
        for upstream in new.upstreams {
            guard let previous = old.upstreams.first(where: { $0.name == upstream.name }) else {
                addedUpstreams.append(upstream.name)
                continue
            }
            if previous.isDefinedAlike(upstream) {
                keptUpstreams.append(upstream.name)
            } else {
                replacedUpstreams.append(upstream.name)
            }
        }
        removedUpstreams = old.upstreams.map(\.name).filter { name in !new.upstreams.contains { $0.name == name } }
    }

    /// One line for the log: `routes added: GET /v2/menu; upstreams kept: menu, new: prices`;
    /// the empty lists are left out.
    var summary: String {
        let parts = [
            ("routes added", addedRoutes), ("routes removed", removedRoutes), ("upstreams kept", keptUpstreams),
            ("upstreams new", addedUpstreams), ("upstreams replaced", replacedUpstreams), ("upstreams removed", removedUpstreams),
        ].filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1.joined(separator: ", "))" }
        return parts.isEmpty ? "no route or upstream added or removed" : parts.joined(separator: "; ")
    }

    /// Every route `catalog` serves, as the log names it.
    private static func routes(of catalog: GatewayCatalog) -> [String] {
        catalog.endpoints.map { "\($0.method.rawValue) \($0.path)" } + catalog.proxies.map { "proxy \($0.path)" }
    }
}

extension UpstreamDefinition {
    /// Whether `other` would be set up as this one is: the same name, defaults and cache
    /// settings. Actions are code, the same in both when the upstream is the catalog's; the
    /// endpoints file's upstreams have none.
    func isDefinedAlike(_ other: UpstreamDefinition) -> Bool {
        name == other.name && defaultBaseURL == other.defaultBaseURL && defaultTimeout == other.defaultTimeout
            && defaultMaximumRedirects == other.defaultMaximumRedirects && cache == other.cache
    }
}
