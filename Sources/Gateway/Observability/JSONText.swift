/// Appending JSON numbers to a byte buffer, for log lines built without an encoder; strings go
/// through HTTPServerCore's `JSONString`.
enum JSONText {
    /// Appends a non-negative integer in decimal.
    static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        guard value > 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        let start = bytes.count
        var remaining = value
        while remaining > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(remaining % 10))
            remaining /= 10
        }
        bytes[start...].reverse()
    }

    /// Appends a duration as milliseconds with three decimals: `12.345`.
    static func appendMilliseconds(_ duration: Duration, to bytes: inout [UInt8]) {
        let microseconds = max(0, Int(duration.nanoseconds / 1000))
        appendInteger(microseconds / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        let fraction = microseconds % 1000
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
