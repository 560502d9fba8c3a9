/// One value or key of a parsed document, as offsets into the input bytes.
///
/// The tape lists entries in document order: an object is followed by its keys and values
/// (key, value, key, value…), an array by its elements. Containers record where they end, so a
/// reader skips a whole subtree in one step. Sixteen bytes per entry, no boxed values.
struct TapeEntry {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    let kind: Kind
    /// For strings: the content holds at least one escape sequence. For numbers: it has a fraction or exponent.
    let hasEscapesOrFraction: Bool
    /// Byte offset of the value; for strings, of the first byte after the opening quote.
    let offset: UInt32
    /// Strings and numbers: byte length of the content. Containers: number of elements or members.
    var length: UInt32
    /// Containers: index of the first entry after the container. Other kinds: unused.
    var end: UInt32

    init(kind: Kind, offset: Int, length: Int = 0, hasEscapesOrFraction: Bool = false) {
        self.kind = kind
        self.hasEscapesOrFraction = hasEscapesOrFraction
        self.offset = UInt32(truncatingIfNeeded: offset)
        self.length = UInt32(truncatingIfNeeded: length)
        self.end = 0
    }

    var isContainer: Bool { kind == .object || kind == .array }
}
