import Gateway

/// The three public APIs of the built-in example (SCENARIO.md).
extension UpstreamDefinition {
    static let deck = UpstreamDefinition(name: "deck", defaultBaseURL: "https://deckofcardsapi.com/api/deck")
    static let swapi = UpstreamDefinition(name: "swapi", defaultBaseURL: "https://swapi.dev/api")
    static let menu = UpstreamDefinition(
        name: "menu", defaultBaseURL: "https://raw.githubusercontent.com/mokagio/tddinswift_fake_api/trunk")
}
