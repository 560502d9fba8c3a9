import HTTPBasics

/// Parses the field lines of a complete head in one pass, shared by requests and responses.
enum HeaderSectionParser {
    /// Parses the field lines in `bytes[start..<end]`, where `end` is where the closing empty line
    /// begins, so every line inside is known to end with a line feed.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>,
        from start: Int,
        to end: Int,
        fieldCount: Int,
        framing: inout FramingFields
    ) throws(HTTPParseError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(fieldCount)
        var index = start
        while index < end {
            guard !ASCII.isWhitespace(bytes[index]) else { throw .badRequest("obsolete line folding") }
            let nameStart = index
            while FieldSyntax.isTokenByte(bytes[index]) { index += 1 }
            guard index > nameStart else { throw .badRequest("invalid field name") }
            guard bytes[index] == ASCII.colon else {
                throw .badRequest(ASCII.isWhitespace(bytes[index]) ? "whitespace before colon" : "invalid field name")
            }
            let nameEnd = index
            index += 1
            while ASCII.isWhitespace(bytes[index]) { index += 1 }
            let valueStart = index
            index = FieldSyntax.endOfFieldValue(in: bytes, from: index)
            var valueEnd = index
            switch bytes[index] {
            case ASCII.carriageReturn:
                guard bytes[index + 1] == ASCII.lineFeed else { throw .badRequest("bare CR") }
                index += 2
            case ASCII.lineFeed:
                index += 1
            default:
                throw .badRequest("invalid character in field value")
            }
            while valueEnd > valueStart && ASCII.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
            let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])
            let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
            try framing.note(name: name, value: value)
            headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        return headers
    }
}
