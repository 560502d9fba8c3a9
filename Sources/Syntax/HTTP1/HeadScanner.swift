import Glibc

/// Finds where a message head ends, enforcing the size limits while bytes arrive.
///
/// Each byte is looked at once however the head is split across reads: the scanner keeps the
/// offset it reached and jumps from line feed to line feed with `memchr`. The caller passes the
/// same growing buffer each time, starting at the first byte of the head.
struct HeadScanner: Sendable {
    private let limits: HTTPLimits
    private let lineTooLong: HTTPParseError
    private let skipsLeadingEmptyLines: Bool

    /// Index of the first byte of the start line, after any skipped empty lines.
    private(set) var headStart = 0
    /// Index of the line feed that ends the start line, or -1 before it is seen.
    private(set) var startLineEnd = -1
    /// Index where the current line begins; once the head is complete, where its final empty line begins.
    private(set) var lineStart = 0
    /// Field lines seen so far.
    private(set) var fieldCount = 0
    private var scannedUpTo = 0

    init(limits: HTTPLimits, lineTooLong: HTTPParseError, skipsLeadingEmptyLines: Bool) {
        self.limits = limits
        self.lineTooLong = lineTooLong
        self.skipsLeadingEmptyLines = skipsLeadingEmptyLines
    }

    mutating func reset() {
        headStart = 0
        startLineEnd = -1
        lineStart = 0
        fieldCount = 0
        scannedUpTo = 0
    }

    /// The index of the line feed that closes the head, or nil when more bytes are needed.
    mutating func findEnd(in bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        if startLineEnd < 0 && scannedUpTo == headStart && skipsLeadingEmptyLines {
            guard try skipEmptyLines(bytes) else { return nil }
        }
        var index = scannedUpTo
        while index < count, let found = memchr(base + index, Int32(ASCII.lineFeed), count - index) {
            let lineFeed = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            if startLineEnd < 0 {
                guard lineFeed + 1 - headStart <= limits.maximumRequestLineBytes else { throw lineTooLong }
                startLineEnd = lineFeed
            } else {
                let length = lineFeed - lineStart
                if length == 0 || (length == 1 && base[lineStart] == ASCII.carriageReturn) {
                    scannedUpTo = lineFeed + 1
                    return lineFeed
                }
                fieldCount += 1
                guard fieldCount <= limits.maximumHeaderCount else { throw .tooManyHeaders }
                guard lineFeed - startLineEnd <= limits.maximumHeaderBytes else { throw .headerTooLarge }
            }
            lineStart = lineFeed + 1
            index = lineFeed + 1
        }
        scannedUpTo = count
        if startLineEnd < 0 {
            guard count - headStart <= limits.maximumRequestLineBytes else { throw lineTooLong }
        } else {
            // Two bytes of slack for the CRLF of the closing empty line, which is not a field.
            guard count - startLineEnd - 1 <= limits.maximumHeaderBytes + 2 else { throw .headerTooLarge }
        }
        return nil
    }

    /// Skips the empty lines RFC 9112 §2.2 lets a server ignore before a request line, such as the
    /// stray CRLF some clients send after a body. Returns false when more bytes are needed.
    private mutating func skipEmptyLines(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Bool {
        while headStart < bytes.count {
            switch bytes[headStart] {
            case ASCII.lineFeed:
                headStart += 1
            case ASCII.carriageReturn:
                guard headStart + 1 < bytes.count else { return false }
                guard bytes[headStart + 1] == ASCII.lineFeed else { throw .badRequest("bare CR") }
                headStart += 2
            default:
                scannedUpTo = headStart
                lineStart = headStart
                return true
            }
            guard headStart <= limits.maximumRequestLineBytes else { throw lineTooLong }
        }
        scannedUpTo = headStart
        return false
    }
}
