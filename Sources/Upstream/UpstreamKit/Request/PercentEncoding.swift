/// Percent-encoding of path segments and query components (RFC 3986 §2.1).
///
/// Everything except the unreserved characters is encoded, so a value can never introduce a
/// `/`, `?`, `#`, `&` or `=` of its own into the target it is placed in.
package enum PercentEncoding {
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Appends `value` to `target`, encoding every byte that is not unreserved.
    package static func append(_ value: some StringProtocol, to target: inout [UInt8]) {
        // Most values need no escaping: one scan of the contiguous bytes, then one copy.
        let copied = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.allSatisfy(isUnreserved) else { return false }
            target.append(contentsOf: bytes)
            return true
        }
        if copied == true { return }
        for byte in value.utf8 {
            if isUnreserved(byte) {
                target.append(byte)
            } else {
                target.append(UInt8(ascii: "%"))
                target.append(hexDigits[Int(byte >> 4)])
                target.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
