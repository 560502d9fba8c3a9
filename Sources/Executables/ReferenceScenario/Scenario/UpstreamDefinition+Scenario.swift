import Gateway

/// The three public APIs of the built-in example (SCENARIO.md).
extension UpstreamDefinition {
    /// Its GETs shuffle and draw: each changes a deck's state, so no answer is ever reused or shared.
    static let deck = UpstreamDefinition(name: "deck", defaultBaseURL: "https://deckofcardsapi.com/api/deck", cache: .off)
    static let swapi = UpstreamDefinition(name: "swapi", defaultBaseURL: "https://swapi.dev/api")
    static let menu = UpstreamDefinition(
        name: "menu", defaultBaseURL: "https://raw.githubusercontent.com/mokagio/tddinswift_fake_api/trunk")
}
