import ASCIISyntax

/// The W3C Trace Context `traceparent` header (https://www.w3.org/TR/trace-context/#traceparent-header):
/// read from a client, written for each upstream call.
enum TraceParent {
    static let headerName = "traceparent"

    /// The sampled bit of the trace flags, the only flag version 00 defines.
    static let sampled: UInt8 = 0x01

    /// The trace id and flags of `header` when it is valid; nil otherwise.
    ///
    /// Version 00 is exactly `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>` in lower
    /// case, with neither id all zeros; later versions may append fields after a `-`, and are read
    /// as version 00 as the specification asks; `ff` is invalid.
    static func parse(_ header: String) -> (traceID: (high: UInt64, low: UInt64), parentID: UInt64, flags: UInt8)? {
        var header = header
        // Native strings, as the server's parser makes them, give their bytes without a copy.
        return header.withUTF8 { bytes in
            guard bytes.count >= 55, bytes.count <= 256, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
                  bytes[52] == UInt8(ascii: "-"),
                  let version = hex(bytes, from: 0, count: 2), version != 0xFF,
                  let high = hex(bytes, from: 3, count: 16), let low = hex(bytes, from: 19, count: 16),
                  let parent = hex(bytes, from: 36, count: 16), let flags = hex(bytes, from: 53, count: 2)
            else { return nil }
            if version == 0, bytes.count != 55 { return nil }
            if bytes.count > 55, bytes[55] != UInt8(ascii: "-") { return nil }
            guard high | low != 0, parent != 0, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
            return ((high, low), parent, UInt8(flags))
        }
    }

    /// `00-<trace id>-<parent id>-<flags>`, written straight into the string's storage: the one
    /// allocation is the string's. The trace id comes as its digits (`IdentifierSource.hexWords(of:)`,
    /// high half first), which a request makes once for all its calls.
    static func header(traceIDDigits: (high: (UInt64, UInt64), low: (UInt64, UInt64)), parentID: UInt64, flags: UInt8) -> String {
        String(unsafeUninitializedCapacity: 55) { bytes in
            bytes[0] = UInt8(ascii: "0")
            bytes[1] = UInt8(ascii: "0")
            bytes[2] = UInt8(ascii: "-")
            IdentifierSource.write(traceIDDigits.high, into: bytes, at: 3)
            IdentifierSource.write(traceIDDigits.low, into: bytes, at: 19)
            bytes[35] = UInt8(ascii: "-")
            IdentifierSource.writeHex(parentID, into: bytes, at: 36)
            bytes[52] = UInt8(ascii: "-")
            bytes[53] = HexDigit.lowercase(of: flags >> 4)
            bytes[54] = HexDigit.lowercase(of: flags & 0xF)
            return 55
        }
    }

    /// The parent id of a `traceparent` this gateway wrote (`header(traceIDDigits:parentID:flags:)`),
    /// zero when it is not one.
    static func parentID(of header: String) -> UInt64 {
        var header = header
        return header.withUTF8 { bytes in bytes.count == 55 ? hex(bytes, from: 36, count: 16) ?? 0 : 0 }
    }

    /// The value of `count` lower-case hexadecimal digits at `start`, nil when one is not.
    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> UInt64? {
        var value: UInt64 = 0
        for byte in bytes[start..<start + count] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
