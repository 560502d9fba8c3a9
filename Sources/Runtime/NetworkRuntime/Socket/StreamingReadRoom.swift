/// How much room the next read of a streamed body gets: a little while the peer sends little, so
/// that a quiet stream (an event stream between events) holds no buffer while it waits, and
/// 64 KiB once reads fill what they are given, so that a download moves in large reads.
public struct StreamingReadRoom: Sendable {
    private static let small = 4096
    private let large: Int
    private var size = StreamingReadRoom.small

    /// - Parameter largest: the room once reads fill it, 64 KiB unless given (at least 4 KiB).
    public init(largest: Int = 64 * 1024) {
        large = max(largest, Self.small)
    }

    /// Makes room in `buffer` for the next read. When the last read was small and the buffer is
    /// empty, its storage is given back instead: the read allocates a small one once bytes are
    /// there, so a stream that waits (for hours, between events) holds no buffer while it does.
    public func prepare(_ buffer: inout ReadBuffer) {
        if size == Self.small, buffer.isEmpty {
            buffer.releaseIfEmpty()
        } else {
            buffer.reserveFreeSpace(size)
        }
    }

    /// Records how many bytes the read brought: at least half the room keeps it large.
    public mutating func record(read count: Int) {
        size = count * 2 >= size ? large : Self.small
    }
}
