/// A Lua script run with `EVALSHA`, sent whole with `EVAL` only when the server does not know it yet.
public struct RedisScript: Sendable {
    /// The script's source.
    public let source: String
    /// Its SHA-1, which names it to `EVALSHA`.
    public let sha1: String

    /// A script from its source.
    public init(_ source: String) {
        self.source = source
        sha1 = HexDigest.sha1(Array(source.utf8))
    }
}
