/// Tests eight bytes at a time for the bytes a JSON string cannot hold as they are: quotes,
/// backslashes and control characters. Both the parser and the writer skip runs of plain text with it.
enum SpecialByteScan {
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `pointer` as one word, the first byte lowest.
    static func word(at pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Sets the high bit of each byte of `word` that is a quote, a backslash or below 0x20. A
    /// borrow can also flag a byte above such a byte, never one below it, so the lowest flagged
    /// byte (`trailingZeroBitCount / 8`) is exact.
    static func specialBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ 0x2222_2222_2222_2222
        let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let controlBytes = (word &- 0x2020_2020_2020_2020) & ~word
        let quoteBytes = (quotes &- ones) & ~quotes
        let backslashBytes = (backslashes &- ones) & ~backslashes
        return (controlBytes | quoteBytes | backslashBytes) & highBits
    }

    /// Sets the high bit of each DEL byte of `word` (which `JSONString` escapes for terminals), with
    /// the same guarantee for the lowest flagged byte as `specialBytes`.
    static func deleteBytes(in word: UInt64) -> UInt64 {
        let deletes = word ^ 0x7F7F_7F7F_7F7F_7F7F
        return (deletes &- 0x0101_0101_0101_0101) & ~deletes & highBits
    }
}
