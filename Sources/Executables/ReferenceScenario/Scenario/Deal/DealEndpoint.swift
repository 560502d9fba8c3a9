import Gateway
import UpstreamKit

extension Endpoint {
    /// `GET /v1/deal`: shuffle a shoe, then draw every card in one call and deal them round-robin.
    static let deal = Endpoint(
        "/v1/deal",
        summary: "Deal hands from a freshly shuffled shoe",
        parameters: [
            .query("players", integerIn: 1...8, default: 2, "number of hands"),
            .query("cards", integerIn: 1...13, default: 5, "cards per hand"),
        ],
        upstreams: [.deck],
        example: DealResponse.example
    ) { call in
        let players = try call.integer("players")
        let cards = players * (try call.integer("cards"))
        let deck = try call.upstream(.deck)
        let shuffle = try await deck.get(
            "new", "shuffle", trailingSlash: true, query: [QueryItem("deck_count", String(DealResponse.deckCount(forCards: cards)))],
            as: DeckShuffle.self)
        guard shuffle.hasUsableDeckID else {
            throw UpstreamFailure(upstream: UpstreamDefinition.deck.name, error: .decodingFailed(reason: "no usable deck id"))
        }
        let draw = try await deck.get(
            shuffle.deckID, "draw", trailingSlash: true, query: [QueryItem("count", String(cards))], as: DeckDraw.self)
        guard draw.success, draw.cards.count == cards else {
            throw UpstreamFailure(upstream: UpstreamDefinition.deck.name, error: .decodingFailed(reason: "too few cards drawn"))
        }
        return DealResponse(deckId: shuffle.deckID, draw: draw, players: players)
    }
}
