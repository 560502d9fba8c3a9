/// A coding key for positions the decoder and encoder report in coding paths themselves:
/// array indices, and object keys read from the document.
struct IndexOrNameKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// The key Foundation uses for `superDecoder()` and `superEncoder()`.
    static let `super` = IndexOrNameKey(stringValue: "super")
}
