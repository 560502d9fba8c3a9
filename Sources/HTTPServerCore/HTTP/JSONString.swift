import HTTPBasics

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
        var string = string
        bytes.append(UInt8(ascii: "\""))
        // Runs that need no escaping (all of most ids, paths and names) are copied as blocks.
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices where needsEscaping(utf8[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscaped(utf8[index], to: &bytes)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        let hexDigits: StaticString = "0123456789abcdef"
        switch byte {
        case UInt8(ascii: "\""): bytes.append(literal: #"\""#)
        case UInt8(ascii: "\\"): bytes.append(literal: #"\\"#)
        case 0x0A: bytes.append(literal: #"\n"#)
        case 0x0D: bytes.append(literal: #"\r"#)
        case 0x09: bytes.append(literal: #"\t"#)
        case 0x08: bytes.append(literal: #"\b"#)
        case 0x0C: bytes.append(literal: #"\f"#)
        default:
            bytes.append(literal: #"\u00"#)
            bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
            bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }
}
