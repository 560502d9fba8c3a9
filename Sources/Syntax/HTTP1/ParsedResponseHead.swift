/// A response head and how many bytes of the buffer it took.
public struct ParsedResponseHead: Sendable, Equatable {
    public var head: ResponseHead
    /// Bytes to consume from the front of the buffer.
    public var length: Int
}
