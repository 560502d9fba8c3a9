/// The body of `GET /v1/deal`.
package struct DealResponse: Encodable, Sendable, Equatable {
    let deckId: String
    let hands: [[String]]
    let remaining: Int

    init(deckId: String, hands: [[String]], remaining: Int) {
        self.deckId = deckId
        self.hands = hands
        self.remaining = remaining
    }

    /// Deals the drawn cards round-robin: card `i` goes to player `i mod players`.
    package init(deckId: String, draw: DeckDraw, players: Int) {
        var hands = [[String]](repeating: [], count: max(players, 1))
        for (index, card) in draw.cards.enumerated() {
            hands[index % hands.count].append(card.code)
        }
        self.init(deckId: deckId, hands: hands, remaining: draw.remaining)
    }

    /// How many decks a deal of `cards` needs: ⌈cards / 52⌉.
    static func deckCount(forCards cards: Int) -> Int {
        (cards + 51) / 52
    }

    static let example = DealResponse(deckId: "3p40paa87x90", hands: [["6H", "KS"], ["2C", "AD"]], remaining: 48)
}
