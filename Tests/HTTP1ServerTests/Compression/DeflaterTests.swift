import Testing

@testable import HTTP1

@Suite("Deflater")
struct DeflaterTests {
    /// `body` gzipped by a deflater sized for it, then inflated.
    func roundTrip(_ body: [UInt8], level: Int = Deflater.defaultLevel) throws -> (compressed: [UInt8], inflated: [UInt8]) {
        let compressed = try Deflater(level: level, inputBytes: body.count).gzip(body)
        let inflater = try Inflater(format: .gzip)
        var inflated: [UInt8] = []
        try compressed.withUnsafeBytes { try inflater.inflate($0, appendingTo: &inflated, maximumOutputBytes: 1 << 24) }
        #expect(inflater.isFinished)
        return (compressed, inflated)
    }

    @Test("bodies of every size gzip and inflate back, smaller when they repeat", arguments: [0, 1, 100, 1024, 40_000, 1 << 20])
    func roundTrips(size: Int) throws {
        let body = Compressed.sampleText(count: size)
        let (compressed, inflated) = try roundTrip(body)
        #expect(inflated == body)
        #expect(Array(compressed.prefix(3)) == [0x1F, 0x8B, 8])  // the gzip magic and deflate
        if size >= 1024 { #expect(compressed.count < size / 3) }
    }

    @Test("every level gzips, and one deflater compresses body after body", arguments: 0...9)
    func levels(level: Int) throws {
        let deflater = try Deflater(level: level, inputBytes: 5000)
        for size in [5000, 300, 5000] {
            let body = Compressed.sampleText(count: size)
            let inflater = try Inflater(format: .gzip)
            var inflated: [UInt8] = []
            try deflater.gzip(body).withUnsafeBytes { try inflater.inflate($0, appendingTo: &inflated, maximumOutputBytes: 1 << 20) }
            #expect(inflated == body && inflater.isFinished)
        }
    }

    @Test("a body larger than the window it was sized for still round-trips")
    func largerThanSized() throws {
        let body = Compressed.sampleText(count: 100_000)
        let compressed = try Deflater(inputBytes: 10).gzip(body)
        let inflater = try Inflater(format: .gzip)
        var inflated: [UInt8] = []
        try compressed.withUnsafeBytes { try inflater.inflate($0, appendingTo: &inflated, maximumOutputBytes: 1 << 20) }
        #expect(inflated == body)
    }

    @Test("a level outside 0...9 is refused")
    func invalidLevel() {
        #expect(throws: DeflateError.invalidLevel(10)) { try Deflater(level: 10) }
        #expect(throws: DeflateError.invalidLevel(-1)) { try Deflater(level: -1) }
    }

    @Test("the window is the smallest that reaches over the body, from 512 bytes to 32 KiB", arguments: [
        (0, 9), (250, 9), (251, 10), (762, 10), (763, 11), (32_506, 15), (1 << 20, 15),
    ])
    func window(inputBytes: Int, bits: Int) {
        #expect(Deflater.windowBits(for: inputBytes) == bits)
    }
}
