/// Appends JSON text to a growable byte buffer: punctuation, literals, numbers and escaped strings,
/// formatted exactly as Foundation's `JSONEncoder` formats them (with `.withoutEscapingSlashes`).
///
/// It manages its own memory rather than appending to an `[UInt8]`, because the array's
/// per-append uniqueness and capacity checks cost as much as the formatting itself; the result is
/// copied out once by `append(to:)`. The owner must call `deallocate()` exactly once.
struct JSONWriter: JSONOutput {
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
    /// one exists, else `\u00XX`); `/`, DEL and non-ASCII text are kept as they are.
    mutating func writeString(_ string: String) {
        var string = string
        // Native and small strings hand out their UTF-8 without copying it to the heap.
        string.withUTF8 { utf8 in
            // The common case, nothing to escape, costs one reservation and one copy.
            reserve(utf8.count + 2)
            JSONString.write(utf8, escapingDelete: false, to: &self)
        }
    }

    /// Writes an object key and its colon: `"name":`.
    mutating func writeKey(_ key: String) {
        writeString(key)
        write(UInt8(ascii: ":"))
    }
}
