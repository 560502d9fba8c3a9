import ASCIISyntax
import HTTPBasics

/// Writing the chunked transfer coding (RFC 9112 §7.1) for bodies sent as they are produced:
/// each piece goes as one whole chunk, its size line before it and its CRLF after it, so that a
/// reader's decoder has the chunk complete as soon as it arrives.
public enum ChunkFraming {
    /// The last chunk and the end of an empty trailer section.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// Makes `piece` a chunk: its size line goes into `sizeLine` (sent before it), its CRLF at its
    /// end. Pieces made by `piece(_:)` have room for the CRLF, so they are not copied.
    public static func wrap(_ piece: inout [UInt8], sizeLine: inout [UInt8]) {
        var size = piece.count
        var digits = 0
        repeat {
            digits += 1
            size >>= 4
        } while size > 0
        size = piece.count
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            let digit = UInt8((size >> shift) & 0xf)
            sizeLine.append(HexDigit.lowercase(of: digit))
        }
        sizeLine.append(ASCII.carriageReturn)
        sizeLine.append(ASCII.lineFeed)
        piece.append(ASCII.carriageReturn)
        piece.append(ASCII.lineFeed)
    }

    /// `bytes` as a piece of a streamed body, with room for the CRLF `wrap` adds.
    public static func piece(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var piece: [UInt8] = []
        piece.reserveCapacity(bytes.count + 2)
        piece.append(contentsOf: bytes)
        return piece
    }
}
