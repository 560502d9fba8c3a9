import HTTP1
import Testing

@Suite("Inflater")
struct InflaterTests {
    static let text = Compressed.sampleText(count: 100_000)

    /// Inflates `input` in pieces of `pieceSize` bytes.
    func inflate(
        _ input: [UInt8], _ format: Inflater.Format, pieceSize: Int = .max, limit: Int = 1 << 20
    ) throws(InflateError) -> (output: [UInt8], isFinished: Bool) {
        let inflater = try Inflater(format: format)
        var output: [UInt8] = []
        var start = 0
        while start < input.count {
            let end = start + min(pieceSize, input.count - start)
            let piece = Array(input[start..<end])
            let inflated = piece.withUnsafeBytes { piece in
                Result { () throws(InflateError) in try inflater.inflate(piece, appendingTo: &output, maximumOutputBytes: limit) }
            }
            try inflated.get()
            start = end
        }
        return (output, inflater.isFinished)
    }

    @Test("gzip, zlib-wrapped and raw deflate inflate to what was compressed", arguments: [
        (Compressed.Wrapping.gzip, Inflater.Format.gzip), (.zlib, .gzip), (.zlib, .deflate), (.raw, .deflate),
    ])
    func roundTrip(wrapping: Compressed.Wrapping, format: Inflater.Format) throws {
        let compressed = Compressed.bytes(Self.text, wrapping)
        #expect(compressed.count < Self.text.count / 3)
        let whole = try inflate(compressed, format)
        #expect(whole.output == Self.text)
        #expect(whole.isFinished)
        // Byte by byte too: the deflate wrapper is chosen from two bytes that arrive apart.
        let trickled = try inflate(compressed, format, pieceSize: 1)
        #expect(trickled.output == Self.text)
        #expect(trickled.isFinished)
    }

    @Test("a truncated stream is not finished")
    func truncated() throws {
        let compressed = Compressed.bytes(Self.text, .gzip)
        let cut = try inflate(Array(compressed.dropLast(10)), .gzip)
        #expect(!cut.isFinished)
        #expect(try !inflate(Array(compressed.prefix(1)), .deflate).isFinished)
    }

    @Test("corrupt data, a wrong checksum and bytes after the end are refused")
    func corrupt() {
        var compressed = Compressed.bytes(Self.text, .gzip)
        #expect(throws: InflateError.corrupt) { try inflate(Array("not compressed at all".utf8), .gzip) }
        #expect(throws: InflateError.corrupt) { try inflate(compressed + [0], .gzip) }
        compressed[compressed.count - 6] ^= 0xFF  // in the CRC-32 trailer
        #expect(throws: InflateError.corrupt) { try inflate(compressed, .gzip) }
    }

    @Test("a bomb stops at the limit, within one buffer of output")
    func bomb() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        let bomb = Compressed.bytes(zeros, .gzip)
        #expect(bomb.count < 10_000)
        #expect(throws: InflateError.outputTooLarge(limit: 65536)) { try inflate(bomb, .gzip, limit: 65536) }
        // Exactly at the limit is fine.
        #expect(try inflate(Compressed.bytes(Array(zeros.prefix(65536)), .gzip), .gzip, limit: 65536).output.count == 65536)
    }
}
