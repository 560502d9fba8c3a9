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

    /// 32 hexadecimal digits: the process's prefix and its next identifier (`IdentifierSource`).
    static func generate() -> String {
        let identifier = IdentifierSource.next()
        // Written straight into the string's storage: no array, no copy.
        return String(unsafeUninitializedCapacity: 32) { bytes in
            IdentifierSource.writeHex(IdentifierSource.processPrefix, into: bytes, at: 0)
            IdentifierSource.writeHex(identifier, into: bytes, at: 16)
            return 32
        }
    }
}
