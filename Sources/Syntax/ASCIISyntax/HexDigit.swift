/// Hexadecimal digits as HTTP, URLs and JSON write them: in percent-encoding, chunk sizes, IPv6
/// literals, `\u` escapes and /proc/self/maps.
public enum HexDigit {
    /// The value of an ASCII hexadecimal digit in either case, or nil.
    @inlinable @inline(__always)
    public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The lower-case ASCII digit of `value`, which is 0 through 15.
    @inlinable @inline(__always)
    public static func lowercase(of value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
