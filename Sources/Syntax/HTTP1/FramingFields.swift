import ASCIISyntax

/// What the fields that decide framing and connection handling said, gathered while the header
/// section is parsed so no field is looked up again afterwards.
struct FramingFields: Sendable {
    enum TransferCoding: Sendable {
        case absent
        /// Exactly one field whose value is exactly `chunked`.
        case chunked
        /// Any other coding, a list of codings, or more than one field.
        case unsupported
    }

    /// The single Content-Length value; `Int.max` stands for any value too large to represent.
    var contentLength: Int?
    var transferCoding = TransferCoding.absent
    var hasConnectionClose = false
    var hasConnectionKeepAlive = false
    var hostCount = 0
    var expectsContinue = false
    var hasUnsupportedExpectation = false
    /// What `Content-Encoding` says; read by the client only.
    var contentCoding = ContentCoding.identity
    private var hasContentEncoding = false

    /// Records `name: value` if the name is one that matters for framing, refusing a `Host`
    /// value outside its grammar (RFC 9112 §3.2).
    ///
    /// Content-Length is taken the strict way nginx takes it: one field with one run of digits.
    /// A repeated field or a list such as `5, 5` is refused even when the values agree, because
    /// peers that fold such lists differently are how request smuggling starts.
    mutating func note(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) {
        switch name.count {
        case 4 where ASCII.equalsLowercased(name, "host"):
            guard HostAndPort.isValid(value, requiresPort: false) else { throw .badRequest("invalid Host") }
            hostCount += 1
        case 6 where ASCII.equalsLowercased(name, "expect"):
            if ASCII.equalsLowercased(value, "100-continue") {
                expectsContinue = true
            } else {
                hasUnsupportedExpectation = true
            }
        case 10 where ASCII.equalsLowercased(name, "connection"):
            noteConnectionOptions(value)
        case 14 where ASCII.equalsLowercased(name, "content-length"):
            guard contentLength == nil else { throw .badRequest("duplicate Content-Length") }
            contentLength = try Self.parseContentLength(value)
        case 16 where ASCII.equalsLowercased(name, "content-encoding"):
            // A second field adds a coding to the list the first began: more than this client decodes.
            contentCoding = hasContentEncoding ? .unsupported : ContentCoding(value)
            hasContentEncoding = true
        case 17 where ASCII.equalsLowercased(name, "transfer-encoding"):
            let isChunked = transferCoding == .absent && ASCII.equalsLowercased(value, "chunked")
            transferCoding = isChunked ? .chunked : .unsupported
        default:
            break
        }
    }

    private mutating func noteConnectionOptions(_ value: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count && value[end] != ASCII.comma { end += 1 }
            var first = start
            var last = end
            while first < last && ASCII.isWhitespace(value[first]) { first += 1 }
            while last > first && ASCII.isWhitespace(value[last - 1]) { last -= 1 }
            let option = UnsafeBufferPointer(rebasing: value[first..<last])
            if ASCII.equalsLowercased(option, "close") {
                hasConnectionClose = true
            } else if ASCII.equalsLowercased(option, "keep-alive") {
                hasConnectionKeepAlive = true
            }
            start = end + 1
        }
    }

    private static func parseContentLength(_ value: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Int {
        guard !value.isEmpty else { throw .badRequest("invalid Content-Length") }
        var length = 0
        for byte in value {
            guard DecimalDigits.isDigit(byte) else { throw .badRequest("invalid Content-Length") }
            guard length <= (Int.max - 9) / 10 else { return Int.max }
            length = length * 10 + Int(byte - 0x30)
        }
        return length
    }
}
