/// The appends both head writers are made of. A head is a few dozen short pieces, so each piece
/// is copied as one block (a checked string in one scan and one copy; literals with
/// `append(literal:)`) and a line end as two single bytes, cheaper than a general append of so few.
public enum HeadBytes {
    /// Appends the bytes of `string` if they pass `isAllowed`; returns whether they did, leaving
    /// `buffer` untouched when not.
    @inlinable @inline(__always)
    public static func append(_ string: String, to buffer: inout [UInt8], where isAllowed: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let contiguous = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard isAllowed(bytes) else { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        if let contiguous { return contiguous }
        let bytes = Array(string.utf8)
        guard bytes.withUnsafeBufferPointer(isAllowed) else { return false }
        buffer.append(contentsOf: bytes)
        return true
    }

    /// Appends CR LF.
    @inlinable
    public static func appendLineEnd(to buffer: inout [UInt8]) {
        buffer.append(ASCII.carriageReturn)
        buffer.append(ASCII.lineFeed)
    }
}
