import ASCIISyntax
public import HTTPBasics
/// An incremental, strict HTTP/1.1 response head parser for the client, with the same rules and
/// limits as `RequestHeadParser` (the status line is held to `maximumRequestLineBytes`).
///
/// Every error means the upstream misbehaved: map it to 502 and do not reuse the connection.
/// Content-Length together with Transfer-Encoding, a repeated or malformed Content-Length, and
/// any transfer coding other than a single `chunked` are refused. A 1xx head is returned like
/// any other; skip it and parse again for the final response.
public struct ResponseHeadParser: Sendable {
    public let limits: HTTPLimits
    private var scanner: HeadScanner

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
        scanner = HeadScanner(limits: limits, lineTooLong: .badRequest("status line too long"), skipsLeadingEmptyLines: false)
    }

    /// Parses the head at the start of `bytes`, or returns nil when it is not complete yet.
    ///
    /// - Parameter requestMethod: the method of the request this answers; a response to HEAD has no body.
    public mutating func parse(
        _ bytes: UnsafeRawBufferPointer, requestMethod: HTTPMethod
    ) throws(HTTPParseError) -> ParsedResponseHead? {
        let buffer = UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        do {
            guard let headEnd = try scanner.findEnd(in: buffer) else { return nil }
            let head = try makeHead(buffer, requestMethod: requestMethod)
            scanner.reset()
            return ParsedResponseHead(head: head, length: headEnd + 1)
        } catch {
            scanner.reset()
            throw error
        }
    }

    /// Forgets any partial head.
    public mutating func reset() {
        scanner.reset()
    }

    private func makeHead(_ bytes: UnsafeBufferPointer<UInt8>, requestMethod: HTTPMethod) throws(HTTPParseError) -> ResponseHead {
        var lineEnd = scanner.startLineEnd
        if lineEnd > 0 && bytes[lineEnd - 1] == ASCII.carriageReturn { lineEnd -= 1 }
        // status-line = HTTP-version SP 3DIGIT SP [ reason-phrase ]; a missing final SP is tolerated.
        guard lineEnd >= 12,
            bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"), bytes[2] == UInt8(ascii: "T"),
            bytes[3] == UInt8(ascii: "P"), bytes[4] == ASCII.slash, bytes[5] == UInt8(ascii: "1"),
            bytes[6] == UInt8(ascii: "."), bytes[7] == UInt8(ascii: "0") || bytes[7] == UInt8(ascii: "1"),
            bytes[8] == ASCII.space,
            DecimalDigits.isDigit(bytes[9]), DecimalDigits.isDigit(bytes[10]), DecimalDigits.isDigit(bytes[11]),
            lineEnd == 12 || bytes[12] == ASCII.space
        else { throw .badRequest("invalid status line") }
        for index in 12..<lineEnd where !FieldSyntax.isFieldValueByte(bytes[index]) {
            throw .badRequest("invalid reason phrase")
        }
        let version = bytes[7] == UInt8(ascii: "1") ? HTTPVersion.http1_1 : .http1_0
        let code = Int(bytes[9] - 0x30) * 100 + Int(bytes[10] - 0x30) * 10 + Int(bytes[11] - 0x30)
        guard code >= 100 else { throw .badRequest("invalid status code") }
        let status = HTTPStatus(code: code)

        var fields = FramingFields()
        let headers = try HeaderSectionParser.parse(
            bytes, from: scanner.startLineEnd + 1, to: scanner.lineStart, fieldCount: scanner.fieldCount, framing: &fields)

        if fields.transferCoding != .absent {
            guard fields.contentLength == nil else { throw .badRequest("both Content-Length and Transfer-Encoding") }
            guard fields.transferCoding == .chunked, version == .http1_1 else { throw .badRequest("unsupported transfer coding") }
        }
        let keepAlive = version == .http1_1 ? !fields.hasConnectionClose : fields.hasConnectionKeepAlive && !fields.hasConnectionClose
        let framing: ResponseHead.Framing
        if requestMethod == .head || !status.allowsContent {
            framing = .none
        } else if fields.transferCoding == .chunked {
            framing = .chunked
        } else if let length = fields.contentLength {
            guard length <= limits.maximumBodyBytes else { throw .bodyTooLarge }
            framing = length == 0 ? .none : .contentLength(length)
        } else {
            return ResponseHead(
                version: version, status: status, headers: headers, framing: .untilClose, keepAlive: false, contentCoding: fields.contentCoding)
        }
        return ResponseHead(version: version, status: status, headers: headers, framing: framing, keepAlive: keepAlive, contentCoding: fields.contentCoding)
    }
}
