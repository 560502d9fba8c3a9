/// A request head and how many bytes of the buffer it took.
public struct ParsedRequestHead: Sendable, Equatable {
    public var head: RequestHead
    /// Bytes to consume from the front of the buffer, any empty lines before the request line included.
    public var length: Int
}
