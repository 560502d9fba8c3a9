import HTTPBasics

/// Keeps header injection out of upstream requests: names must be tokens, values free of CR, LF and NUL.
package enum HeaderValidation {
    static func isValid(_ field: HTTPHeaders.Field) -> Bool {
        isToken(field.name) && isValidValue(field.value)
    }

    static func isValidValue(_ value: some StringProtocol) -> Bool {
        allBytes(of: value) { $0 != 0x0D && $0 != 0x0A && $0 != 0 }
    }

    /// A field name (RFC 9110 §5.6.2 token), not empty.
    package static func isToken(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && allBytes(of: name, satisfy: isTokenByte)
    }

    /// `tchar`: the unreserved characters and ``!#$%&'*+^`|``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "^"), UInt8(ascii: "`"),
             UInt8(ascii: "|"):
            true
        default:
            PercentEncoding.isUnreserved(byte)
        }
    }

    /// The name when it is a token, else a placeholder, so an error never echoes hostile bytes.
    static func printableName(_ name: String) -> String {
        isToken(name) ? name : "<invalid name>"
    }

    /// Scans the contiguous UTF-8 storage when there is one (always, for native strings), which
    /// is several times cheaper than iterating the UTF-8 view.
    private static func allBytes(of string: some StringProtocol, satisfy predicate: (UInt8) -> Bool) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? string.utf8.allSatisfy(predicate)
    }
}
