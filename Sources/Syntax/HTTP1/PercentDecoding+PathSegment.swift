public import ASCIISyntax
public import HTTPBasics

extension PercentDecoding {
    /// Decodes one path segment for use as a parameter, refusing anything that could change the
    /// shape of a path it is put into: empty, a dot segment (`DotSegmentScan`: `..;x` too), and
    /// `/ \ ? #` or control characters once decoded.
    @inlinable
    public static func decodePathSegment(_ raw: Substring.UTF8View) -> String? {
        guard let segment = decode(raw, plusAsSpace: false), !segment.isEmpty, !DotSegmentScan.holdsDotSegment(segment.utf8) else {
            return nil
        }
        let isSafe = segment.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "#"), ASCII.delete, 0..<ASCII.space: false
            default: true
            }
        }
        return isSafe ? segment : nil
    }
}
