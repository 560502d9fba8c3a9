/// The upstreams and combined endpoints a gateway serves: the table teams extend.
///
/// Adding an upstream is one `UpstreamDefinition` (its environment variables follow from its
/// name); adding an endpoint is one `Endpoint`. Both go into this table, which the router,
/// `GET /`, `/openapi.json` and `/metrics` are all built from.
struct GatewayCatalog: Sendable {
    let upstreams: [UpstreamDefinition]
    let endpoints: [Endpoint]

    /// The reference scenario: deck, swapi and menu, and the three endpoints over them.
    static let builtIn = GatewayCatalog(upstreams: [.deck, .swapi, .menu], endpoints: [.menu, .person, .deal])
}
