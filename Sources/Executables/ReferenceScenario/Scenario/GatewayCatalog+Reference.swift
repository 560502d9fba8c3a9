public import Gateway
extension GatewayCatalog {
    /// The reference scenario (docs/SCENARIO.md): deck, swapi and menu, and the three
    /// endpoints over them, as the `gateway` executable serves it.
    public static let reference = GatewayCatalog(upstreams: [.deck, .swapi, .menu], endpoints: [.menu, .person, .deal])
}
