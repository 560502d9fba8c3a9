/// Whole numbers written as ASCII digits into a byte buffer, for the text built without
/// Foundation (HTTP heads, dates, timestamps and log lines), and the test of a digit the parsers share.
public enum DecimalDigits {
    /// Whether `byte` is an ASCII decimal digit, `0` through `9`.
    @inlinable @inline(__always)
    public static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Appends the decimal digits of `value`, zero-padded to at least `minimumCount` digits
    /// (`7` with 3 gives `007`); a negative value is written as 0.
    ///
    /// Inlinable because every response head's status and `Content-Length` go through it.
    @inlinable
    public static func append(_ value: Int, minimumCount: Int = 1, to bytes: inout [UInt8]) {
        // Digits are produced last first on the stack, then appended in one block: one capacity
        // check instead of one per digit, and no reversal afterwards.
        let capacity = max(minimumCount, 20)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { digits in
            var index = capacity
            var remaining = max(value, 0)
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            } while remaining > 0 || capacity - index < minimumCount
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// Writes the decimal digits of `value` (a negative one as 0) into `buffer` from `start`, which
    /// must leave room for 20, and returns the index after the last.
    @inlinable
    public static func write(_ value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var remaining = max(value, 0)
        var end = start
        var probe = remaining
        repeat {
            end += 1
            probe /= 10
        } while probe > 0
        var index = end
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while index > start
        return end
    }
}
