import ASCIISyntax
import HTTPBasics

/// An incremental decoder for the chunked transfer coding (RFC 9112 §7.1).
///
/// Feed it the bytes that follow the head; it appends chunk data to the body and reports how
/// many bytes it consumed, stopping right after the final CRLF so that pipelined bytes stay in
/// the buffer. Chunk extensions are skipped and trailer fields discarded, both within bounds.
/// Like the head parser, it accepts a bare LF as line terminator and refuses a bare CR.
public struct ChunkedBodyDecoder: Sendable {
    private enum State: Sendable {
        case sizeStart
        case size
        case sizeWhitespace
        case sizeExtension
        case sizeLineFeed
        case data
        case dataCarriageReturn
        case dataLineFeed
        case trailerLineStart
        case trailerLine
        case trailerLineFeed
        case finalLineFeed
        case complete
    }

    /// Largest body; more is refused with 413.
    public let maximumBodyBytes: Int
    /// Most bytes of chunk extensions in the whole body, and separately of trailer fields.
    public let maximumMetadataBytes: Int
    private var state = State.sizeStart
    /// The size being read, then the bytes of the current chunk still to come.
    private var chunkSize = 0
    private var sizeDigits = 0
    private var extensionBytes = 0
    private var trailerBytes = 0

    public init(maximumBodyBytes: Int = HTTPLimits().maximumBodyBytes, maximumMetadataBytes: Int = 16384) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumMetadataBytes = maximumMetadataBytes
    }

    /// Whether the last chunk and the trailer section have been read.
    public var isComplete: Bool { state == .complete }

    /// Decodes as much of `bytes` as it can, appending chunk data to `body`.
    ///
    /// - Returns: how many bytes were consumed from the front of `bytes` (all of them until the
    ///   body is complete), and whether it is complete.
    public mutating func decode(
        _ bytes: UnsafeRawBufferPointer, into body: inout [UInt8]
    ) throws(HTTPParseError) -> (consumed: Int, isComplete: Bool) {
        var index = 0
        let count = bytes.count
        while index < count && state != .complete {
            if state == .data {
                let available = min(chunkSize, count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + available]))
                index += available
                chunkSize -= available
                if chunkSize == 0 { state = .dataCarriageReturn }
                continue
            }
            try advance(bytes[index], bodyCount: body.count)
            index += 1
        }
        return (index, state == .complete)
    }

    private mutating func advance(_ byte: UInt8, bodyCount: Int) throws(HTTPParseError) {
        switch state {
        case .sizeStart:
            guard let digit = HexDigit.value(of: byte) else { throw .badRequest("invalid chunk size") }
            chunkSize = Int(digit)
            sizeDigits = 1
            state = .size
        case .size:
            if let digit = HexDigit.value(of: byte) {
                // Fifteen hex digits fit in an Int; no acceptable chunk needs more.
                guard sizeDigits < 15 else { throw .badRequest("chunk size too large") }
                chunkSize = chunkSize << 4 | Int(digit)
                sizeDigits += 1
                return
            }
            guard chunkSize <= maximumBodyBytes - bodyCount else { throw .bodyTooLarge }
            try endSizeLine(byte)
        case .sizeWhitespace:
            if byte == ASCII.semicolon {
                state = .sizeExtension
            } else if !ASCII.isWhitespace(byte) {
                throw .badRequest("invalid chunk size")
            }
        case .sizeExtension:
            if byte == ASCII.carriageReturn || byte == ASCII.lineFeed {
                try endSizeLine(byte)
                return
            }
            guard FieldSyntax.isFieldValueByte(byte) else { throw .badRequest("invalid chunk extension") }
            extensionBytes += 1
            guard extensionBytes <= maximumMetadataBytes else { throw .badRequest("chunk extensions too long") }
        case .sizeLineFeed:
            guard byte == ASCII.lineFeed else { throw .badRequest("bare CR") }
            startChunk()
        case .dataCarriageReturn:
            if byte == ASCII.carriageReturn {
                state = .dataLineFeed
            } else {
                guard byte == ASCII.lineFeed else { throw .badRequest("missing line break after chunk data") }
                state = .sizeStart
            }
        case .dataLineFeed:
            guard byte == ASCII.lineFeed else { throw .badRequest("bare CR") }
            state = .sizeStart
        case .trailerLineStart, .trailerLine:
            if byte == ASCII.carriageReturn {
                state = state == .trailerLineStart ? .finalLineFeed : .trailerLineFeed
            } else if byte == ASCII.lineFeed {
                state = state == .trailerLineStart ? .complete : .trailerLineStart
            } else {
                guard FieldSyntax.isFieldValueByte(byte) else { throw .badRequest("invalid trailer field") }
                trailerBytes += 1
                guard trailerBytes <= maximumMetadataBytes else { throw .headerTooLarge }
                state = .trailerLine
            }
        case .trailerLineFeed:
            guard byte == ASCII.lineFeed else { throw .badRequest("bare CR") }
            state = .trailerLineStart
        case .finalLineFeed:
            guard byte == ASCII.lineFeed else { throw .badRequest("bare CR") }
            state = .complete
        case .data, .complete:
            break
        }
    }

    /// Handles the byte after a chunk size or inside its extensions.
    private mutating func endSizeLine(_ byte: UInt8) throws(HTTPParseError) {
        switch byte {
        case ASCII.carriageReturn: state = .sizeLineFeed
        case ASCII.lineFeed: startChunk()
        case ASCII.semicolon: state = .sizeExtension
        default:
            guard ASCII.isWhitespace(byte) else { throw .badRequest("invalid chunk size") }
            state = .sizeWhitespace
        }
    }

    private mutating func startChunk() {
        state = chunkSize == 0 ? .trailerLineStart : .data
    }
}
