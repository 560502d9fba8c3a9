/// Converts the bytes of a validated JSON number into Swift numeric types.
enum NumberConversion {
    /// Why a number could not be converted.
    enum Failure: Error {
        case notAnInteger
        case outOfRange
    }

    /// Converts an integer literal (no fraction, no exponent), rejecting values `T` cannot hold.
    static func integer<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, hasFraction: Bool) throws(Failure) -> T {
        guard !hasFraction else { throw .notAnInteger }
        var index = 0
        let isNegative = text.first == UInt8(ascii: "-")
        if isNegative { index = 1 }
        var magnitude: UInt64 = 0
        while index < text.count {
            let digit = UInt64(text[index] &- UInt8(ascii: "0"))
            let (shifted, overflowOnMultiply) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowOnAdd) = shifted.addingReportingOverflow(digit)
            guard !overflowOnMultiply, !overflowOnAdd else { throw .outOfRange }
            magnitude = sum
            index += 1
        }
        if isNegative {
            guard T.isSigned, magnitude <= UInt64(T.max) + 1 else {
                guard magnitude == 0 else { throw .outOfRange }
                return 0
            }
            // -(T.max + 1) is representable, so negate in T's unsigned width via two's complement.
            return T(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(T.max) else { throw .outOfRange }
        return T(truncatingIfNeeded: magnitude)
    }

    /// Converts any JSON number to the nearest `Double`, rejecting magnitudes beyond its range.
    static func double(_ text: UnsafeBufferPointer<UInt8>) throws(Failure) -> Double {
        if let exact = exactDouble(text) { return exact }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { throw .outOfRange }
        return value
    }

    /// Converts any JSON number to the nearest `Float`, rejecting magnitudes beyond its range.
    static func float(_ text: UnsafeBufferPointer<UInt8>) throws(Failure) -> Float {
        guard let value = Float(String(decoding: text, as: UTF8.self)), value.isFinite else { throw .outOfRange }
        return value
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Clinger's fast path: when the decimal significand fits in 53 bits and the power of ten is at
    /// most 10^22, both are exact doubles and one multiplication or division rounds correctly.
    /// Returns nil for the rare numbers that need the full conversion.
    private static func exactDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let isNegative = text.first == UInt8(ascii: "-")
        if isNegative { index = 1 }
        var significand: UInt64 = 0
        var digitCount = 0
        var exponent = 0
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
            significand = significand &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
            digitCount += 1
            index += 1
        }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
                significand = significand &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
                digitCount += 1
                exponent -= 1
                index += 1
            }
        }
        if index < text.count {
            // An exponent: `e`, an optional sign, digits.
            index += 1
            var exponentIsNegative = false
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentIsNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            while index < text.count {
                guard written < 10_000 else { return nil }
                written = written * 10 + Int(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            exponent += exponentIsNegative ? -written : written
        }
        // 19 digits always fit in UInt64, so the accumulation above did not wrap.
        guard digitCount <= 19, significand <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(significand)
        if exponent < 0 {
            value /= powersOfTen[-exponent]
        } else {
            value *= powersOfTen[exponent]
        }
        return isNegative ? -value : value
    }
}
