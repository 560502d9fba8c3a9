/// The upstreams and combined endpoints a gateway serves: the table teams extend.
struct GatewayCatalog: Sendable {
    let upstreams: [UpstreamDefinition]
    let endpoints: [Endpoint]

    /// The reference scenario: deck, swapi and menu, and the three endpoints over them.
    static let builtIn = GatewayCatalog(upstreams: [.deck, .swapi, .menu], endpoints: [.menu, .person, .deal])
}
