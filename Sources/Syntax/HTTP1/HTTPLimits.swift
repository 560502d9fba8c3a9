/// Size limits applied while parsing a message head and body, with the status each one answers.
///
/// The defaults follow nginx and Node: a request line up to 8 KiB (414 beyond), a header section
/// up to 16 KiB and 100 fields (431 beyond), and bodies up to 1 MiB (413 beyond).
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line or status line in bytes, line terminator included.
    public var maximumRequestLineBytes: Int
    /// Longest header section in bytes, every field line and its terminator included.
    public var maximumHeaderBytes: Int
    /// Most header fields in one head.
    public var maximumHeaderCount: Int
    /// Largest body, whether framed by `Content-Length` or chunked.
    public var maximumBodyBytes: Int

    public init(
        maximumRequestLineBytes: Int = 8192,
        maximumHeaderBytes: Int = 16384,
        maximumHeaderCount: Int = 100,
        maximumBodyBytes: Int = 1 << 20
    ) {
        self.maximumRequestLineBytes = maximumRequestLineBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumBodyBytes = maximumBodyBytes
    }
}
