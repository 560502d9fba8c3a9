/// The `X-Request-ID` of a request: the client's when it is sane, otherwise a new one.
enum RequestID {
    static let headerName = "X-Request-ID"

    /// Echoes `header` when it is 1 to 128 characters of letters, digits and `-_.:@+=/~`;
    /// anything else (control characters, spaces, quotes, overlong) is replaced, so it is safe
    /// to log, to echo and to send upstream.
    static func resolve(_ header: String?) -> String {
        if let header, isSane(header) { return header }
        return generate()
    }

    static func isSane(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= 128 else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "-_.:@+=/~".utf8.contains(byte)
            }
        }
    }

    /// 32 random hexadecimal digits.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
