import ASCIISyntax

/// Builds Swift strings from the content of validated JSON strings.
enum StringUnescaping {
    /// Decodes string content that the parser has validated (escapes, surrogate pairs and UTF-8 are
    /// all well-formed), resolving escape sequences.
    static func string(from content: UnsafeBufferPointer<UInt8>, hasEscapes: Bool) -> String {
        guard hasEscapes else { return String(decoding: content, as: UTF8.self) }
        // Every escape is at least as long as the UTF-8 it stands for, so the content length is enough.
        return String(unsafeUninitializedCapacity: content.count) { output in
            var written = 0
            var index = 0
            while index < content.count {
                let byte = content[index]
                guard byte == UInt8(ascii: "\\") else {
                    output[written] = byte
                    written += 1
                    index += 1
                    continue
                }
                let escaped = content[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "b"): output[written] = 0x08
                case UInt8(ascii: "f"): output[written] = 0x0C
                case UInt8(ascii: "n"): output[written] = 0x0A
                case UInt8(ascii: "r"): output[written] = 0x0D
                case UInt8(ascii: "t"): output[written] = 0x09
                case UInt8(ascii: "u"):
                    var scalar = UInt32(hexValue(content, at: index))
                    index += 4
                    if scalar >= 0xD800, scalar <= 0xDBFF {
                        // The parser guarantees `\uDC00`…`\uDFFF` follows.
                        let low = UInt32(hexValue(content, at: index + 2))
                        index += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    written += writeUTF8(scalar, into: output, at: written)
                    continue
                default: output[written] = escaped
                }
                written += 1
            }
            return written
        }
    }

    private static func hexValue(_ content: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16 {
        var value: UInt16 = 0
        for offset in 0..<4 {
            value = value << 4 | UInt16(HexDigit.value(of: content[index + offset]) ?? 0)
        }
        return value
    }

    private static func writeUTF8(_ scalar: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
        switch scalar {
        case 0..<0x80:
            output[index] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[index] = UInt8(0xC0 | scalar >> 6)
            output[index + 1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[index] = UInt8(0xE0 | scalar >> 12)
            output[index + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[index + 2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[index] = UInt8(0xF0 | scalar >> 18)
            output[index + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[index + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[index + 3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
