extension StringProtocol {
    /// ASCII case-insensitive equality, the comparison HTTP uses for field names and tokens.
    @inlinable
    public func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        // Folding case keeps the length, and a native string knows its length without a scan:
        // most names compared in a header lookup differ in it.
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in left.equalsIgnoringASCIICase(right) }
        }
        if let compared, let compared { return compared }
        return zip(utf8, other.utf8).allSatisfy { $0 == $1 || UnsafeBufferPointer<UInt8>.areLettersIgnoringCase($0, $1) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The byte comparison behind `StringProtocol.equalsIgnoringASCIICase`, on contiguous UTF-8.
    @usableFromInline
    func equalsIgnoringASCIICase(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for index in indices where self[index] != other[index] {
            guard Self.areLettersIgnoringCase(self[index], other[index]) else { return false }
        }
        return true
    }

    /// Whether two bytes are the same ASCII letter in either case.
    @inlinable
    static func areLettersIgnoringCase(_ left: UInt8, _ right: UInt8) -> Bool {
        let lowered = left | 0x20
        return lowered == right | 0x20 && lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "z")
    }
}
