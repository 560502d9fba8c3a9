/// Follows the frames of one direction of a WebSocket (RFC 6455 §5.2) by their headers alone, so
/// that a relay knows when the bytes it passed on end at a frame's end: the one place where a
/// frame of its own (a close on shutdown) may go without breaking the stream. Payloads are
/// skipped, never read or unmasked.
public struct WebSocketFrameScanner: Sendable, Equatable {
    /// Header bytes of the current frame seen so far; 0 between frames and inside a payload.
    private var headerCount = 0
    /// The current header's length, and where its extended payload length ends (before the
    /// masking key), once its second byte is known.
    private var headerLength = 2
    private var extendedLengthEnd = 2
    private var payloadLength: UInt64 = 0
    private var payloadLeft: UInt64 = 0

    /// Whether a close frame (opcode 8) began in the bytes scanned so far.
    public private(set) var hasSeenClose = false

    public init() {}

    /// Whether the bytes scanned so far end exactly at a frame's end (or none came yet).
    public var isAtBoundary: Bool { headerCount == 0 && payloadLeft == 0 }

    /// Follows `bytes`, the next ones of the direction.
    public mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            if headerCount == 0, payloadLeft > 0 {
                let skipped = Int(min(payloadLeft, UInt64(bytes.count - index)))
                payloadLeft -= UInt64(skipped)
                index += skipped
                continue
            }
            let byte = bytes[index]
            index += 1
            switch headerCount {
            case 0:
                headerLength = 2
                if byte & 0x0F == 0x8 { hasSeenClose = true }
            case 1:
                let length = byte & 0x7F
                extendedLengthEnd = 2 + (length == 126 ? 2 : length == 127 ? 8 : 0)
                headerLength = extendedLengthEnd + (byte & 0x80 != 0 ? 4 : 0)
                payloadLength = length < 126 ? UInt64(length) : 0
            default:
                if headerCount < extendedLengthEnd { payloadLength = payloadLength << 8 | UInt64(byte) }
            }
            headerCount += 1
            if headerCount == headerLength {
                headerCount = 0
                payloadLeft = payloadLength
            }
        }
    }

    /// A close frame with `code` and no reason: masked (with a random key) from a client,
    /// unmasked from a server (RFC 6455 §5.1).
    public static func closeFrame(code: UInt16, masked: Bool) -> [UInt8] {
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        guard masked else { return [0x88, 0x02] + payload }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return [0x88, 0x82] + key + payload.enumerated().map { $0.element ^ key[$0.offset] }
    }
}
