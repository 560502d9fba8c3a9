/// The deck upstream's answer to `new/shuffle/`.
struct DeckShuffle: Decodable, Sendable, Equatable {
    let success: Bool
    let deckID: String

    private enum CodingKeys: String, CodingKey {
        case success
        case deckID = "deck_id"
    }

    /// Whether the id can go into the next request's path as it is: letters and digits only.
    var hasUsableDeckID: Bool {
        success && !deckID.isEmpty && deckID.utf8.count <= 64
            && deckID.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
    }
}
