/// How much room the next read of a streamed body gets: a little while the peer sends little, so
/// that a quiet stream (an event stream between events) holds no large buffer while it waits, and
/// 64 KiB once reads fill what they are given, so that a download moves in large reads.
public struct StreamingReadRoom: Sendable {
    private static let small = 4096
    private static let large = 64 * 1024
    private var size = StreamingReadRoom.small

    public init() {}

    /// Makes room in `buffer` for the next read, giving back a large buffer that is empty when
    /// the last read was small.
    public func prepare(_ buffer: inout ReadBuffer) {
        if size == Self.small { buffer.shrinkIfEmpty() }
        buffer.reserveFreeSpace(size)
    }

    /// Records how many bytes the read brought: at least half the room keeps it large.
    public mutating func record(read count: Int) {
        size = count * 2 >= size ? Self.large : Self.small
    }
}
