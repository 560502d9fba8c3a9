/// JSON string literals (RFC 8259 §7): the one escaper behind the encoder's strings and the small
/// JSON documents written without an encoder (problem details, log lines built on the hot path).
public enum JSONString {
    /// Appends `string` quoted, with quotes, backslashes and control characters escaped (`\n`
    /// style where one exists, else `\u00XX`); everything else, non-ASCII included, is copied as
    /// UTF-8.
    ///
    /// DEL is escaped too, although JSON allows it raw: these strings reach terminals through
    /// logs, and a request must not be able to put invisible characters there.
    public static func append(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        // Native and small strings hand out their UTF-8 without copying it to the heap.
        string.withUTF8 { write($0, escapingDelete: true, to: &bytes) }
    }

    /// Writes `utf8` quoted to `output`, escaping what JSON requires, and DEL as well when
    /// `escapingDelete` (the encoder does not: its output matches Foundation's `JSONEncoder`).
    // Always inlined, with the scan, so that each caller's constant policy folds away.
    @inline(__always)
    static func write<Output: JSONOutput>(_ utf8: UnsafeBufferPointer<UInt8>, escapingDelete: Bool, to output: inout Output) {
        output.write(UInt8(ascii: "\""))
        // Runs that need no escaping (all of most ids, paths and names) are copied as blocks.
        var runStart = 0
        var index = firstByteToEscape(in: utf8, from: 0, escapingDelete: escapingDelete)
        while index < utf8.count {
            output.write(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            writeEscape(for: utf8[index], to: &output)
            runStart = index + 1
            index = firstByteToEscape(in: utf8, from: runStart, escapingDelete: escapingDelete)
        }
        output.write(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        output.write(UInt8(ascii: "\""))
    }

    /// The index of the first byte from `start` that needs escaping, or the count if none does;
    /// eight bytes at a time.
    @inline(__always)
    private static func firstByteToEscape(in utf8: UnsafeBufferPointer<UInt8>, from start: Int, escapingDelete: Bool) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        func bytesToEscape(at index: Int) -> UInt64 {
            let word = SpecialByteScan.word(at: base + index)
            let special = SpecialByteScan.specialBytes(in: word)
            return escapingDelete ? special | SpecialByteScan.deleteBytes(in: word) : special
        }
        var index = start
        while index + 8 <= utf8.count {
            let flagged = bytesToEscape(at: index)
            if flagged != 0 { return index + flagged.trailingZeroBitCount / 8 }
            index += 8
        }
        guard index < utf8.count else { return index }
        if utf8.count - 8 >= start {
            // The last eight bytes overlap plain ones checked above, which are never flagged.
            let last = utf8.count - 8
            let flagged = bytesToEscape(at: last)
            return flagged != 0 ? last + flagged.trailingZeroBitCount / 8 : utf8.count
        }
        while index < utf8.count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingDelete && byte == 0x7F) {
                return index
            }
            index += 1
        }
        return index
    }

    private static func writeEscape<Output: JSONOutput>(for byte: UInt8, to output: inout Output) {
        let short: UInt8? = switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x08: UInt8(ascii: "b")
        case 0x09: UInt8(ascii: "t")
        case 0x0A: UInt8(ascii: "n")
        case 0x0C: UInt8(ascii: "f")
        case 0x0D: UInt8(ascii: "r")
        default: nil
        }
        output.write(UInt8(ascii: "\\"))
        if let short {
            output.write(short)
        } else {
            let hexDigits: StaticString = "0123456789abcdef"
            output.write(UInt8(ascii: "u"))
            output.write(UInt8(ascii: "0"))
            output.write(UInt8(ascii: "0"))
            output.write(hexDigits.utf8Start[Int(byte >> 4)])
            output.write(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }
}
