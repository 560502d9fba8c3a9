import ASCIISyntax
import HTTPBasics

/// An incremental, strict HTTP/1.1 request head parser (RFC 9112).
///
/// Feed it the readable bytes of the connection buffer, from the first byte of the head, each
/// time more arrive; it returns nil until the head is complete. Bytes already scanned are not
/// scanned again, so a head trickling in one byte per read costs one pass in total; for the same
/// reason the bytes passed earlier must still be there, unchanged, at the same offsets (the
/// buffer may move in memory). Consume nothing until a head is returned.
///
/// Choices where the RFC leaves room, made the way nginx makes them:
/// - A bare LF ends a line like CRLF does; a CR not followed by LF is refused anywhere.
/// - Empty lines before the request line are skipped.
/// - `Content-Length` must appear once, as a plain run of digits; `5, 5` and repeated fields are refused.
/// - An absolute-form target (`http://host/path?q`) is accepted and reduced to its path and query;
///   `*` is accepted for `OPTIONS` only, an authority-form target (`host:port`) for `CONNECT`
///   only; any other target must start with `/`. `#` is refused.
/// - A CONNECT request is never followed by another on its connection: a client may send the
///   tunnel's bytes right after it, which must not be read as requests.
/// - A `Host` value must be a host with an optional port, as RFC 9112 §3.2 requires.
/// - The only transfer coding accepted is a single `chunked`, and only from HTTP/1.1 clients.
public struct RequestHeadParser: Sendable {
    public let limits: HTTPLimits
    private var scanner: HeadScanner

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
        scanner = HeadScanner(limits: limits, lineTooLong: .requestLineTooLong, skipsLeadingEmptyLines: true)
    }

    /// Parses the head at the start of `bytes`, or returns nil when it is not complete yet.
    ///
    /// Once it returns a head, the parser is ready for the next one; consume `length` bytes and
    /// pass what follows. Calling `reset()` as well does no harm.
    public mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError) -> ParsedRequestHead? {
        let buffer = UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        do {
            guard let headEnd = try scanner.findEnd(in: buffer) else { return nil }
            let head = try makeHead(buffer)
            scanner.reset()
            return ParsedRequestHead(head: head, length: headEnd + 1)
        } catch {
            scanner.reset()
            throw error
        }
    }

    /// Forgets any partial head, ready to parse a new one from the start of a buffer.
    public mutating func reset() {
        scanner.reset()
    }

    private func makeHead(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> RequestHead {
        var lineEnd = scanner.startLineEnd
        if bytes[lineEnd - 1] == ASCII.carriageReturn { lineEnd -= 1 }
        var index = scanner.headStart
        while index < lineEnd && FieldSyntax.isTokenByte(bytes[index]) { index += 1 }
        guard index > scanner.headStart, index < lineEnd, bytes[index] == ASCII.space else {
            throw .badRequest("invalid method")
        }
        let method = HTTPMethod(rawValue: Self.string(bytes, scanner.headStart, index))

        index += 1
        let targetStart = index
        var queryMark = -1
        while index < lineEnd && bytes[index] != ASCII.space {
            let byte = bytes[index]
            guard FieldSyntax.isVisible(byte), byte != ASCII.numberSign else { throw .badRequest("invalid request target") }
            if byte == ASCII.questionMark && queryMark < 0 { queryMark = index }
            index += 1
        }
        guard index > targetStart, index < lineEnd else { throw .badRequest("invalid request line") }
        let targetEnd = index
        let version = try Self.parseVersion(bytes, from: index + 1, to: lineEnd)

        let target = Self.string(bytes, targetStart, targetEnd)
        let pathStart = try Self.pathStart(bytes, targetStart: targetStart, targetEnd: targetEnd, queryMark: queryMark, method: method)
        let pathEnd = queryMark < 0 ? targetEnd : queryMark
        let path = pathStart < 0 ? "/" : pathStart == targetStart && pathEnd == targetEnd ? target : Self.string(bytes, pathStart, pathEnd)
        let query = queryMark < 0 ? nil : Self.string(bytes, queryMark + 1, targetEnd)
        // Decided before `method` moves into the head, so it is not retained for this.
        let opensTunnel = bytes[targetStart] != ASCII.slash && method == .connect

        var fields = FramingFields()
        let headers = try HeaderSectionParser.parse(
            bytes, from: scanner.startLineEnd + 1, to: scanner.lineStart, fieldCount: scanner.fieldCount, framing: &fields)
        return try validate(
            RequestHead(
                method: method, target: target, path: path, query: query, version: version, headers: headers,
                framing: .none, keepAlive: false, expectsContinue: false),
            fields, opensTunnel: opensTunnel)
    }

    private func validate(_ head: RequestHead, _ fields: FramingFields, opensTunnel: Bool) throws(HTTPParseError) -> RequestHead {
        var head = head
        let isHTTP11 = head.version == .http1_1
        guard fields.hostCount == 1 || (!isHTTP11 && fields.hostCount == 0) else {
            throw .badRequest(fields.hostCount == 0 ? "missing Host" : "repeated Host")
        }
        switch fields.transferCoding {
        case .absent:
            if let length = fields.contentLength {
                guard length <= limits.maximumBodyBytes else { throw .bodyTooLarge }
                head.framing = length == 0 ? .none : .contentLength(length)
            }
        case .chunked, .unsupported:
            guard fields.contentLength == nil else { throw .badRequest("both Content-Length and Transfer-Encoding") }
            guard isHTTP11 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
            guard fields.transferCoding == .chunked else { throw .badRequest("unsupported transfer coding") }
            head.framing = .chunked
        }
        // RFC 9110 §10.1.1: expectations from HTTP/1.0 clients are ignored.
        if isHTTP11 {
            guard !fields.hasUnsupportedExpectation else {
                throw HTTPParseError(status: .expectationFailed, reason: "unsupported expectation")
            }
            head.expectsContinue = fields.expectsContinue
        }
        head.keepAlive = !opensTunnel && (isHTTP11 ? !fields.hasConnectionClose : fields.hasConnectionKeepAlive && !fields.hasConnectionClose)
        return head
    }

    /// `HTTP/1.0` or `HTTP/1.1`; any other well-formed version is 505, anything else 400.
    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) throws(HTTPParseError) -> HTTPVersion {
        guard end - start == 8,
            bytes[start] == UInt8(ascii: "H"), bytes[start + 1] == UInt8(ascii: "T"),
            bytes[start + 2] == UInt8(ascii: "T"), bytes[start + 3] == UInt8(ascii: "P"),
            bytes[start + 4] == ASCII.slash, DecimalDigits.isDigit(bytes[start + 5]),
            bytes[start + 6] == UInt8(ascii: "."), DecimalDigits.isDigit(bytes[start + 7])
        else { throw .badRequest("invalid HTTP version") }
        let major = Int(bytes[start + 5] - 0x30)
        let minor = Int(bytes[start + 7] - 0x30)
        guard major == 1, minor <= 1 else { throw .versionNotSupported }
        return minor == 1 ? .http1_1 : .http1_0
    }

    /// Where the path begins inside the target, or -1 for an absolute-form target without a path;
    /// an authority-form target is its own path.
    private static func pathStart(
        _ bytes: UnsafeBufferPointer<UInt8>, targetStart: Int, targetEnd: Int, queryMark: Int, method: HTTPMethod
    ) throws(HTTPParseError) -> Int {
        if bytes[targetStart] == ASCII.slash { return targetStart }
        if method == .connect {
            guard HostAndPort.isValid(UnsafeBufferPointer(rebasing: bytes[targetStart..<targetEnd]), requiresPort: true) else {
                throw .badRequest("invalid CONNECT target")
            }
            return targetStart
        }
        if targetEnd - targetStart == 1 && bytes[targetStart] == UInt8(ascii: "*") {
            guard method == .options else { throw .badRequest("asterisk-form target outside OPTIONS") }
            return targetStart
        }
        let target = UnsafeBufferPointer(rebasing: bytes[targetStart..<targetEnd])
        let schemeLength: Int
        if target.count > 7 && ASCII.equalsLowercased(UnsafeBufferPointer(rebasing: target[0..<7]), "http://") {
            schemeLength = 7
        } else if target.count > 8 && ASCII.equalsLowercased(UnsafeBufferPointer(rebasing: target[0..<8]), "https://") {
            schemeLength = 8
        } else {
            throw .badRequest("invalid request target")
        }
        let authorityStart = targetStart + schemeLength
        var index = authorityStart
        while index < targetEnd && bytes[index] != ASCII.slash && bytes[index] != ASCII.questionMark { index += 1 }
        guard index > authorityStart else { throw .badRequest("invalid request target") }
        guard index < targetEnd, bytes[index] == ASCII.slash else { return -1 }
        return index
    }

    @inline(__always)
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
