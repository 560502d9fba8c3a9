/// One value of the Redis serialization protocol, RESP2 or RESP3, as a reply carries it.
public enum RESPValue: Sendable, Equatable {
    /// A status line such as `OK` or `PONG` (`+`).
    case simpleString(String)
    /// An error reply (`-`, or RESP3's blob error `!`): the server's message, its first word the
    /// error's kind (`ERR`, `NOSCRIPT`, `WRONGPASS`…).
    case error(String)
    /// A signed 64-bit integer (`:`).
    case integer(Int64)
    /// A binary-safe string (`$`, or RESP3's verbatim string `=` without its format prefix).
    case bulkString([UInt8])
    /// The null bulk string or array of RESP2 (`$-1`, `*-1`), or RESP3's null (`_`).
    case null
    /// An array (`*`), RESP3's set (`~`) or push (`>`).
    case array([RESPValue])
    /// RESP3's map (`%`): keys and values alternating, in the order the server sent them.
    case map([RESPValue])
    /// RESP3's double (`,`).
    case double(Double)
    /// RESP3's boolean (`#`).
    case boolean(Bool)
    /// RESP3's big number (`(`), as its decimal digits.
    case bigNumber(String)
}
