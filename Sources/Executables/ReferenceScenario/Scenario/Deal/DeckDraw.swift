/// The deck upstream's answer to `{deck_id}/draw/`.
package struct DeckDraw: Decodable, Sendable, Equatable {
    struct Card: Decodable, Sendable, Equatable {
        let code: String
    }

    let success: Bool
    let cards: [Card]
    let remaining: Int
}
