extension StringProtocol {
    /// ASCII case-insensitive equality, the comparison HTTP uses for field names and tokens.
    @inlinable
    public func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        var left = utf8.makeIterator()
        var right = other.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case let (a?, b?):
                guard a != b else { continue }
                let lowered = a | 0x20
                guard lowered == b | 0x20, lowered >= UInt8(ascii: "a"), lowered <= UInt8(ascii: "z") else { return false }
            default:
                return false
            }
        }
    }
}
