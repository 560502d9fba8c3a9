/// Appends JSON text to a growable byte buffer: punctuation, literals, numbers and escaped strings,
/// formatted exactly as Foundation's `JSONEncoder` formats them (with `.withoutEscapingSlashes`).
///
/// It manages its own memory rather than appending to an `[UInt8]`, because the array's
/// per-append uniqueness and capacity checks cost as much as the formatting itself; the result is
/// copied out once by `append(to:)`. The owner must call `deallocate()` exactly once.
struct JSONWriter {
    private var start: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Appends everything written so far to `bytes`.
    func append(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    mutating func deallocate() {
        start.deallocate()
        count = 0
        capacity = 0
    }

    /// Makes room for `additional` more bytes.
    @inline(__always)
    private mutating func reserve(_ additional: Int) {
        if count + additional > capacity { grow(toHold: additional) }
    }

    // Apart from `reserve`, so the check inlines into every write and the copy stays out of line.
    @inline(never)
    private mutating func grow(toHold additional: Int) {
        let newCapacity = max(capacity * 2, count + additional)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.update(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    mutating func write(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func writeASCII(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func writeNull() { writeASCII("null") }

    mutating func writeBool(_ value: Bool) { writeASCII(value ? "true" : "false") }

    mutating func writeInteger<T: FixedWidthInteger>(_ value: T) {
        // The magnitude of every standard integer type fits in UInt64, including Int64.min's.
        writeInteger(magnitude: UInt64(value.magnitude), isNegative: value < 0)
    }

    private mutating func writeInteger(magnitude: UInt64, isNegative: Bool) {
        var digitCount = 1
        var remaining = magnitude
        while remaining >= 10 {
            remaining /= 10
            digitCount += 1
        }
        let length = digitCount + (isNegative ? 1 : 0)
        reserve(length)
        if isNegative { start[count] = UInt8(ascii: "-") }
        remaining = magnitude
        var index = count + length
        repeat {
            index -= 1
            start[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0
        count += length
    }

    /// Writes a finite number as the shortest text that reads back as the same value, without a
    /// trailing `.0` (`7.5`, `10`, `1e+16`). Returns false for NaN and infinities, which JSON cannot represent.
    mutating func writeDouble(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        // Integral values below 2^53 print as plain integers; this skips formatting a String.
        if value.rounded(.towardZero) == value, value.magnitude < 9_007_199_254_740_992, !(value == 0 && value.sign == .minus) {
            writeInteger(Int64(value))
        } else if !writeShortDecimal(value) {
            writeFloatingPointDescription(value.description)
        }
        return true
    }

    /// Writes a value that has a decimal with one to three fractional digits (prices, ratings)
    /// without formatting a String; returns false, writing nothing, for any other value.
    ///
    /// Below 2^33 doubles are less than 2^-19 apart, so for each digit count at most one decimal
    /// reads back as the value, the one nearest to it. The first count whose decimal reads back
    /// (a correctly rounded division of exact integers is what parsing the text yields) therefore
    /// gives the shortest such text, which is what `description` prints for these magnitudes.
    private mutating func writeShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 8_589_934_592 else { return false }
        var scale: UInt64 = 1
        for fractionDigits in 1...3 {
            scale *= 10
            let scaled = (magnitude * Double(scale)).rounded()
            guard scaled / Double(scale) == magnitude else { continue }
            let units = UInt64(scaled)
            writeInteger(magnitude: units / scale, isNegative: value < 0)
            write(UInt8(ascii: "."))
            var fraction = units % scale
            reserve(fractionDigits)
            var index = count + fractionDigits
            for _ in 0..<fractionDigits {
                index -= 1
                start[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction % 10)
                fraction /= 10
            }
            count += fractionDigits
            return true
        }
        return false
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
        text.withUTF8 { write($0) }
    }

    /// Writes a quoted string, escaping quotes, backslashes and control characters (`\n` style where
    /// one exists, else `\u00XX`); `/` and non-ASCII text are kept as they are.
    mutating func writeString(_ string: String) {
        var string = string
        // Native and small strings hand out their UTF-8 without copying it to the heap.
        string.withUTF8 { writeQuoted($0) }
    }

    /// Writes an object key and its colon: `"name":`.
    mutating func writeKey(_ key: String) {
        writeString(key)
        write(UInt8(ascii: ":"))
    }

    private mutating func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        // The common case, nothing to escape, costs one reservation and one copy.
        reserve(utf8.count + 2)
        start[count] = UInt8(ascii: "\"")
        count += 1
        var runStart = 0
        var index = Self.firstSpecialByte(in: utf8, from: 0)
        while index < utf8.count {
            write(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            writeEscape(for: utf8[index])
            runStart = index + 1
            index = Self.firstSpecialByte(in: utf8, from: runStart)
        }
        write(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        write(UInt8(ascii: "\""))
    }

    /// The index of the first byte from `start` that needs escaping, or the count if none does.
    private static func firstSpecialByte(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        var index = start
        while index + 8 <= utf8.count {
            let special = SpecialByteScan.specialBytes(in: SpecialByteScan.word(at: base + index))
            if special != 0 { return index + special.trailingZeroBitCount / 8 }
            index += 8
        }
        guard index < utf8.count else { return index }
        if utf8.count - 8 >= start {
            // The last eight bytes overlap plain ones checked above, which are never flagged.
            let last = utf8.count - 8
            let special = SpecialByteScan.specialBytes(in: SpecialByteScan.word(at: base + last))
            return special != 0 ? last + special.trailingZeroBitCount / 8 : utf8.count
        }
        while index < utf8.count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
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
        write(UInt8(ascii: "\\"))
        if let short {
            write(short)
        } else {
            let hexDigits: StaticString = "0123456789abcdef"
            writeASCII("u00")
            write(hexDigits.utf8Start[Int(byte >> 4)])
            write(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }
}
