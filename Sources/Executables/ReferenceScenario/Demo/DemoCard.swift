/// A playing card as the Deck of Cards API describes it.
package struct DemoCard: Sendable, Hashable {
    /// `2`…`9`, `0` for ten, `J`, `Q`, `K`, `A`.
    let valueCode: Character
    /// `S`, `D`, `C` or `H`.
    let suitCode: Character

    var code: String { String(valueCode) + String(suitCode) }

    /// The 52 cards of one deck.
    package static let all: [DemoCard] = "SDCH".flatMap { suit in "234567890JQKA".map { DemoCard(valueCode: $0, suitCode: suit) } }

    var value: String {
        switch valueCode {
        case "0": "10"
        case "J": "JACK"
        case "Q": "QUEEN"
        case "K": "KING"
        case "A": "ACE"
        default: String(valueCode)
        }
    }

    var suit: String {
        switch suitCode {
        case "S": "SPADES"
        case "D": "DIAMONDS"
        case "C": "CLUBS"
        default: "HEARTS"
        }
    }

    /// The card's JSON object, with the public API's image links (its ace of diamonds has an odd name).
    package var json: String {
        let image = "https://deckofcardsapi.com/static/img/" + (code == "AD" ? "aceDiamonds" : code)
        return #"{"code":"\#(code)","image":"\#(image).png","images":{"svg":"\#(image).svg","png":"\#(image).png"},"value":"\#(value)","suit":"\#(suit)"}"#
    }
}
