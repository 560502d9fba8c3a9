import ASCIISyntax

/// The header line of one mapping in `/proc/<pid>/smaps` or `maps`:
/// `start-end perms offset device inode [path]`, addresses in hexadecimal.
struct MappingHeader: Equatable {
    let range: Range<UInt>
    /// A private mapping of a file (inode not 0) that can be read but not written.
    let isReadOnlyFile: Bool

    /// Parses a header line; nil for any other line (`Rss:`, `Anonymous:`, ...).
    init?(_ line: UnsafeBufferPointer<UInt8>) {
        var fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true).makeIterator()
        guard let addresses = fields.next(), let permissions = fields.next(), permissions.count == 4,
              fields.next() != nil, fields.next() != nil, let inodeField = fields.next(),
              let inode = Self.number(inodeField, radix: 10),
              let dash = addresses.firstIndex(of: UInt8(ascii: "-")),
              let start = Self.number(addresses[..<dash], radix: 16),
              let end = Self.number(addresses[(dash + 1)...], radix: 16), start < end
        else { return nil }
        range = start..<end
        // `rwxp`-style: read, write, execute, then `p`rivate or `s`hared.
        let flags = Array(permissions)
        isReadOnlyFile = flags[0] == UInt8(ascii: "r") && flags[1] == UInt8(ascii: "-") && flags[3] == UInt8(ascii: "p") && inode != 0
    }

    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>, radix: UInt) -> UInt? {
        // At most 16 hexadecimal or 19 decimal digits, so the value cannot overflow.
        guard !digits.isEmpty, digits.count <= (radix == 16 ? 16 : 19) else { return nil }
        var value: UInt = 0
        for byte in digits {
            guard let digit = HexDigit.value(of: byte).map(UInt.init), digit < radix else { return nil }
            value = value * radix + digit
        }
        return value
    }
}
