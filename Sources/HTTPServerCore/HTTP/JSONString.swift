/// JSON string literals (RFC 8259 §7) appended to a byte buffer, for the small JSON documents
/// written without an encoder: problem details, and log lines built on the hot path.
public enum JSONString {
    /// Appends `string` quoted, with quotes, backslashes and control characters escaped (`\n`
    /// style where one exists, else `\u00XX`); everything else, non-ASCII included, is copied as
    /// UTF-8.
    ///
    /// DEL is escaped too, although JSON allows it raw: these strings reach terminals through
    /// logs, and a request must not be able to put invisible characters there.
    public static func append(_ string: String, to bytes: inout [UInt8]) {
        let hexDigits: StaticString = "0123456789abcdef"
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20, 0x7F:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
                bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
