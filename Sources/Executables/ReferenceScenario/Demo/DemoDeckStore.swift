import Synchronization

/// The demo deck upstream's state: shoes by id, the oldest forgotten beyond `capacity`.
final class DemoDeckStore: Sendable {
    private let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var decks: [String: DemoDeck] = [:]
        var order: [String] = []
        var oldest = 0
    }

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// A new shuffled shoe; returns its id and size.
    func shuffle(deckCount: Int) -> (id: String, remaining: Int) {
        let deck = DemoDeck(deckCount: deckCount)
        let id = DemoDeckStore.newID()
        state.withLock { state in
            state.decks[id] = deck
            state.order.append(id)
            if state.order.count - state.oldest > capacity {
                state.decks[state.order[state.oldest]] = nil
                state.oldest += 1
                if state.oldest > capacity {
                    state.order.removeFirst(state.oldest)
                    state.oldest = 0
                }
            }
        }
        return (id, deck.remaining)
    }

    /// Draws from shoe `id`; nil when there is no such shoe.
    func draw(from id: String, count: Int) -> (cards: [DemoCard], remaining: Int)? {
        state.withLock { state in
            guard var deck = state.decks[id] else { return nil }
            let cards = Array(deck.draw(count))
            state.decks[id] = deck
            return (cards, deck.remaining)
        }
    }

    /// Twelve lowercase letters and digits, like the public API's ids.
    private static func newID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }
}
