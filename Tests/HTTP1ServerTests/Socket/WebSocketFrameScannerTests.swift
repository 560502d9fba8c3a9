import Testing

@testable import NetworkRuntime

@Suite struct WebSocketFrameScannerTests {
    /// A frame's header for a payload of `length` bytes, masked or not, then the payload.
    private static func frame(length: Int, masked: Bool) -> [UInt8] {
        var bytes: [UInt8] = [0x82]
        let mask: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(mask | UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [mask | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(mask | 127)
            bytes += (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xFF) }
        }
        if masked { bytes += [9, 8, 7, 6] }
        return bytes + [UInt8](repeating: 0x88, count: length)
    }

    @Test(arguments: [0, 1, 125, 126, 300, 0xFFFF, 0x10000], [false, true])
    func findsTheEndOfEachFrameWhateverTheSplit(length: Int, masked: Bool) {
        let frames = Self.frame(length: length, masked: masked) + Self.frame(length: 3, masked: masked)
        let firstEnd = frames.count - Self.frame(length: 3, masked: masked).count
        for split in [1, 2, 7, 1000] {
            var scanner = WebSocketFrameScanner()
            var position = 0
            while position < frames.count {
                let end = min(position + split, frames.count)
                frames[position..<end].withUnsafeBytes { scanner.scan($0) }
                position = end
                let expected = position == firstEnd || position == frames.count
                #expect(scanner.isAtBoundary == expected, "length \(length), split \(split), at \(position)")
            }
            #expect(!scanner.hasSeenClose)
        }
    }

    @Test func closeFramesCarryTheirCodeMaskedOrNot() {
        #expect(WebSocketFrameScanner.closeFrame(code: 1001, masked: false) == [0x88, 0x02, 0x03, 0xE9])
        let masked = WebSocketFrameScanner.closeFrame(code: 1001, masked: true)
        #expect(masked.count == 8 && masked[0] == 0x88 && masked[1] == 0x82)
        #expect([masked[6] ^ masked[2], masked[7] ^ masked[3]] == [0x03, 0xE9])
        var scanner = WebSocketFrameScanner()
        masked.withUnsafeBytes { scanner.scan($0) }
        #expect(scanner.isAtBoundary && scanner.hasSeenClose)
    }
}
