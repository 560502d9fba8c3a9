extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of a string literal as one block copy. Heads and log lines are made
    /// of many short literals, for which the general `append(contentsOf: "…".utf8)` costs several
    /// times more.
    @inlinable
    public mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
