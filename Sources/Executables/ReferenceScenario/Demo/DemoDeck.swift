/// One shoe of the demo deck upstream: shuffled cards drawn from the top, once each.
struct DemoDeck: Sendable {
    private(set) var cards: [DemoCard]
    private(set) var drawn = 0

    /// `deckCount` full decks, shuffled.
    init(deckCount: Int) {
        var generator = SystemRandomNumberGenerator()
        cards = (0..<deckCount).flatMap { _ in DemoCard.all }.shuffled(using: &generator)
    }

    var remaining: Int { cards.count - drawn }

    /// Up to `count` cards from the top; fewer when the shoe runs out.
    mutating func draw(_ count: Int) -> ArraySlice<DemoCard> {
        let end = min(cards.count, drawn + max(0, count))
        defer { drawn = end }
        return cards[drawn..<end]
    }
}
