/// Percent-decoding (RFC 3986 §2.1) of path segments, query fields and URL user information.
public enum PercentDecoding {
    /// Decodes `raw`, or returns nil for an invalid escape, invalid UTF-8 or a NUL byte.
    @inlinable
    public static func decode(_ raw: Substring.UTF8View, plusAsSpace: Bool) -> String? {
        let plus = UInt8(ascii: "+")
        let percent = UInt8(ascii: "%")
        guard raw.contains(where: { $0 == percent || (plusAsSpace && $0 == plus) || $0 == 0 }) else {
            return String(Substring(raw))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index != raw.endIndex {
            let byte = raw[index]
            raw.formIndex(after: &index)
            switch byte {
            case percent:
                guard index != raw.endIndex, let high = HexDigit.value(of: raw[index]) else { return nil }
                raw.formIndex(after: &index)
                guard index != raw.endIndex, let low = HexDigit.value(of: raw[index]) else { return nil }
                raw.formIndex(after: &index)
                bytes.append(high << 4 | low)
            case plus where plusAsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
