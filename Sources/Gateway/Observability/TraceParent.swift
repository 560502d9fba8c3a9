/// The W3C Trace Context `traceparent` header (https://www.w3.org/TR/trace-context/#traceparent-header).
enum TraceParent {
    static let headerName = "traceparent"

    /// The header when it is valid, to pass on to upstreams unchanged; nil otherwise.
    ///
    /// Version 00 is exactly `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>` in lower
    /// case, with neither id all zeros; later versions may append fields after a `-`; `ff` is invalid.
    static func validated(_ header: String?) -> String? {
        guard let header else { return nil }
        let bytes = Array(header.utf8)
        guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-") else {
            return nil
        }
        let version = bytes[0..<2], traceID = bytes[3..<35], parentID = bytes[36..<52], flags = bytes[53..<55]
        guard [version, traceID, parentID, flags].allSatisfy({ $0.allSatisfy(isLowerHex) }) else { return nil }
        guard !version.elementsEqual("ff".utf8) else { return nil }
        if version.elementsEqual("00".utf8), bytes.count != 55 { return nil }
        if bytes.count > 55, bytes[55] != UInt8(ascii: "-") { return nil }
        guard traceID.contains(where: { $0 != UInt8(ascii: "0") }), parentID.contains(where: { $0 != UInt8(ascii: "0") }) else {
            return nil
        }
        guard bytes.count <= 256, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return header
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
