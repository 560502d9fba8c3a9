import ASCIISyntax

/// Validates a document against RFC 8259 and indexes it into a tape in one pass.
///
/// Strict by design: no trailing data, leading zeros, NaN or Infinity, unknown escapes, unpaired
/// surrogates, raw control characters or invalid UTF-8. A leading byte order mark is skipped, as
/// RFC 8259 §8.1 allows. Nesting is limited so hostile input cannot exhaust the stack.
struct TapeParser {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let maximumDepth: Int
    private var position = 0
    /// The tape being built.
    private var entries: GrowableBuffer<TapeEntry>

    private init(base: UnsafePointer<UInt8>, count: Int, maximumDepth: Int) {
        self.base = base
        self.count = count
        self.maximumDepth = maximumDepth
        // Typical documents need an entry per 8 to 20 bytes; the tape grows for denser ones.
        entries = GrowableBuffer(capacity: count / 8 + 8)
    }

    /// Parses the `count` bytes at `base`; the entries' offsets refer to them. The caller owns
    /// the returned tape and must deallocate it.
    static func parse(_ base: UnsafePointer<UInt8>, count: Int, maximumDepth: Int) throws(JSONDecodingError) -> UnsafeMutableBufferPointer<TapeEntry> {
        guard count < Int(UInt32.max) else {
            throw JSONDecodingError(reason: .documentTooLarge, message: "the document is larger than 4 GiB")
        }
        var parser = TapeParser(base: base, count: count, maximumDepth: maximumDepth)
        do {
            try parser.parseDocument()
        } catch {
            parser.entries.deallocate()
            throw error
        }
        return UnsafeMutableBufferPointer(start: parser.entries.start, count: parser.entries.count)
    }

    private mutating func parseDocument() throws(JSONDecodingError) {
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
            position = 3
        }
        skipWhitespace()
        try parseValue(depth: 0)
        skipWhitespace()
        guard position == count else { throw syntaxError("unexpected data after the JSON value") }
    }

    private mutating func parseValue(depth: Int) throws(JSONDecodingError) {
        guard position < count else { throw syntaxError("unexpected end of data, expected a value") }
        switch base[position] {
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        case UInt8(ascii: "t"): try parseLiteral("true", kind: .true)
        case UInt8(ascii: "f"): try parseLiteral("false", kind: .false)
        case UInt8(ascii: "n"): try parseLiteral("null", kind: .null)
        default: throw syntaxError("unexpected character, expected a value")
        }
    }

    // MARK: Containers

    private mutating func parseObject(depth: Int) throws(JSONDecodingError) {
        guard depth <= maximumDepth else { throw nestingError() }
        let index = entries.count
        entries.append(TapeEntry(kind: .object, offset: position))
        position += 1
        skipWhitespace()
        var memberCount = 0
        if position < count, base[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                guard position < count, base[position] == UInt8(ascii: "\"") else {
                    throw syntaxError("expected a string key")
                }
                try parseString()
                skipWhitespace()
                guard position < count, base[position] == UInt8(ascii: ":") else {
                    throw syntaxError("expected ':' after an object key")
                }
                position += 1
                skipWhitespace()
                try parseValue(depth: depth)
                memberCount += 1
                skipWhitespace()
                guard position < count else { throw syntaxError("unexpected end of data inside an object") }
                let separator = base[position]
                position += 1
                if separator == UInt8(ascii: ",") {
                    skipWhitespace()
                } else if separator == UInt8(ascii: "}") {
                    break
                } else {
                    position -= 1
                    throw syntaxError("expected ',' or '}' in an object")
                }
            }
        }
        entries[index].length = UInt32(truncatingIfNeeded: memberCount)
        entries[index].end = UInt32(truncatingIfNeeded: entries.count)
    }

    private mutating func parseArray(depth: Int) throws(JSONDecodingError) {
        guard depth <= maximumDepth else { throw nestingError() }
        let index = entries.count
        entries.append(TapeEntry(kind: .array, offset: position))
        position += 1
        skipWhitespace()
        var elementCount = 0
        if position < count, base[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                try parseValue(depth: depth)
                elementCount += 1
                skipWhitespace()
                guard position < count else { throw syntaxError("unexpected end of data inside an array") }
                let separator = base[position]
                position += 1
                if separator == UInt8(ascii: ",") {
                    skipWhitespace()
                } else if separator == UInt8(ascii: "]") {
                    break
                } else {
                    position -= 1
                    throw syntaxError("expected ',' or ']' in an array")
                }
            }
        }
        entries[index].length = UInt32(truncatingIfNeeded: elementCount)
        entries[index].end = UInt32(truncatingIfNeeded: entries.count)
    }

    // MARK: Scalars

    private mutating func parseString() throws(JSONDecodingError) {
        let start = position + 1
        var cursor = start
        var hasEscapes = false
        while true {
            cursor = skipPlainASCII(from: cursor)
            guard cursor < count else {
                position = start - 1
                throw syntaxError("unterminated string")
            }
            let byte = base[cursor]
            if byte == UInt8(ascii: "\"") {
                break
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                cursor = try validateEscape(at: cursor)
            } else if byte < 0x20 {
                position = cursor
                throw syntaxError("control character in a string; it must be escaped")
            } else if byte >= 0x80 {
                cursor = try validateMultibyteSequence(at: cursor)
            } else {
                cursor += 1
            }
        }
        entries.append(TapeEntry(kind: .string, offset: start, length: cursor - start, hasEscapesOrFraction: hasEscapes))
        position = cursor + 1
    }

    /// Skips eight bytes at a time while none of them is a quote, backslash, control or non-ASCII
    /// byte; within the first word that holds one, it stops right at that byte.
    private func skipPlainASCII(from start: Int) -> Int {
        var cursor = start
        while cursor + 8 <= count {
            let word = SpecialByteScan.word(at: base + cursor)
            let stops = SpecialByteScan.specialBytes(in: word) | word & SpecialByteScan.highBits
            if stops != 0 { return cursor + stops.trailingZeroBitCount / 8 }
            cursor += 8
        }
        return cursor
    }

    /// Checks the escape sequence at `index` (a backslash) and returns the index after it.
    private mutating func validateEscape(at index: Int) throws(JSONDecodingError) -> Int {
        guard index + 1 < count else {
            position = index
            throw syntaxError("unterminated escape sequence")
        }
        switch base[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            let unit = try hexCodeUnit(at: index + 2)
            switch unit {
            case 0xD800...0xDBFF:
                guard index + 7 < count, base[index + 6] == UInt8(ascii: "\\"), base[index + 7] == UInt8(ascii: "u") else {
                    position = index
                    throw syntaxError("high surrogate escape without a following low surrogate")
                }
                let low = try hexCodeUnit(at: index + 8)
                guard (0xDC00...0xDFFF).contains(low) else {
                    position = index + 6
                    throw syntaxError("high surrogate escape followed by a non-low surrogate")
                }
                return index + 12
            case 0xDC00...0xDFFF:
                position = index
                throw syntaxError("low surrogate escape without a preceding high surrogate")
            default:
                return index + 6
            }
        default:
            position = index
            throw syntaxError("invalid escape sequence")
        }
    }

    private mutating func hexCodeUnit(at index: Int) throws(JSONDecodingError) -> UInt16 {
        guard index + 4 <= count else {
            position = index
            throw syntaxError("unterminated \\u escape")
        }
        var unit: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = HexDigit.value(of: base[index + offset]) else {
                position = index + offset
                throw syntaxError("invalid hexadecimal digit in a \\u escape")
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// Checks one UTF-8 sequence starting with a non-ASCII byte (Unicode Table 3-7) and returns the index after it.
    private mutating func validateMultibyteSequence(at index: Int) throws(JSONDecodingError) -> Int {
        let lead = base[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default:
            position = index
            throw syntaxError("invalid UTF-8")
        }
        guard index + length <= count, secondRange.contains(base[index + 1]) else {
            position = index
            throw syntaxError("invalid UTF-8")
        }
        for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 {
            position = index
            throw syntaxError("invalid UTF-8")
        }
        return index + length
    }

    private mutating func parseNumber() throws(JSONDecodingError) {
        let start = position
        var cursor = position
        if base[cursor] == UInt8(ascii: "-") { cursor += 1 }
        guard cursor < count, DecimalDigits.isDigit(base[cursor]) else {
            position = cursor
            throw syntaxError("expected a digit")
        }
        if base[cursor] == UInt8(ascii: "0") {
            cursor += 1
            if cursor < count, DecimalDigits.isDigit(base[cursor]) {
                position = cursor - 1
                throw syntaxError("leading zeros are not allowed in numbers")
            }
        } else {
            cursor = skipDigits(from: cursor)
        }
        var hasFraction = false
        if cursor < count, base[cursor] == UInt8(ascii: ".") {
            hasFraction = true
            cursor += 1
            guard cursor < count, DecimalDigits.isDigit(base[cursor]) else {
                position = cursor
                throw syntaxError("expected a digit after the decimal point")
            }
            cursor = skipDigits(from: cursor)
        }
        if cursor < count, base[cursor] | 0x20 == UInt8(ascii: "e") {
            hasFraction = true
            cursor += 1
            if cursor < count, base[cursor] == UInt8(ascii: "+") || base[cursor] == UInt8(ascii: "-") { cursor += 1 }
            guard cursor < count, DecimalDigits.isDigit(base[cursor]) else {
                position = cursor
                throw syntaxError("expected a digit in the exponent")
            }
            cursor = skipDigits(from: cursor)
        }
        entries.append(TapeEntry(kind: .number, offset: start, length: cursor - start, hasEscapesOrFraction: hasFraction))
        position = cursor
    }

    private func skipDigits(from start: Int) -> Int {
        var cursor = start
        while cursor < count, DecimalDigits.isDigit(base[cursor]) { cursor += 1 }
        return cursor
    }

    private mutating func parseLiteral(_ literal: StaticString, kind: TapeEntry.Kind) throws(JSONDecodingError) {
        let length = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for offset in 0..<length where position + offset >= count || base[position + offset] != text[offset] {
            position += offset
            throw syntaxError("invalid literal, expected \(literal)")
        }
        entries.append(TapeEntry(kind: kind, offset: position))
        position += length
    }

    private mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    // MARK: Errors

    private func syntaxError(_ message: String) -> JSONDecodingError {
        JSONDecodingError(reason: .invalidSyntax, message: message, byteOffset: position)
    }

    private func nestingError() -> JSONDecodingError {
        JSONDecodingError(
            reason: .nestingTooDeep,
            message: "arrays and objects are nested more than \(maximumDepth) levels deep",
            byteOffset: position
        )
    }
}
