/// Appends JSON text to a byte array: punctuation, literals, numbers and escaped strings,
/// formatted exactly as Foundation's `JSONEncoder` formats them (with `.withoutEscapingSlashes`).
struct JSONWriter {
    var bytes: [UInt8]

    mutating func write(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func writeASCII(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func writeNull() { writeASCII("null") }

    mutating func writeBool(_ value: Bool) { writeASCII(value ? "true" : "false") }

    mutating func writeInteger<T: FixedWidthInteger>(_ value: T) {
        // The magnitude of every standard integer type fits in UInt64, including Int64.min's.
        writeInteger(magnitude: UInt64(value.magnitude), isNegative: value < 0)
    }

    private mutating func writeInteger(magnitude: UInt64, isNegative: Bool) {
        if isNegative { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Writes a finite number as the shortest text that reads back as the same value, without a
    /// trailing `.0` (`7.5`, `10`, `1e+16`). Returns false for NaN and infinities, which JSON cannot represent.
    mutating func writeDouble(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        // Integral values below 2^53 print as plain integers; this skips formatting a String.
        if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992, !(value == 0 && value.sign == .minus) {
            writeInteger(Int64(value))
        } else {
            writeFloatingPointDescription(value.description)
        }
        return true
    }

    /// Like `writeDouble`, for `Float`.
    mutating func writeFloat(_ value: Float) -> Bool {
        guard value.isFinite else { return false }
        writeFloatingPointDescription(value.description)
        return true
    }

    private mutating func writeFloatingPointDescription(_ description: String) {
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes a quoted string, escaping quotes, backslashes and control characters (`\n` style where
    /// one exists, else `\u00XX`); `/` and non-ASCII text are kept as they are.
    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                }
                writeEscape(for: byte)
                runStart = index + 1
            }
            if runStart < utf8.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func writeEscape(for byte: UInt8) {
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
        bytes.append(UInt8(ascii: "\\"))
        if let short {
            bytes.append(short)
        } else {
            let hexDigits: StaticString = "0123456789abcdef"
            writeASCII("u00")
            bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
            bytes.append(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }
}
