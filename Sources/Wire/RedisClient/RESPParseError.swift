/// Why bytes from a Redis server are not a RESP value: the connection cannot be trusted after
/// one, and is closed.
public enum RESPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A type byte RESP does not define.
    case unknownType(UInt8)
    /// A length, integer, double or boolean that does not parse, or a line without CRLF.
    case malformed(String)
    /// A bulk string longer than the parser's bound on a reply, refused from its length alone.
    case bulkTooLarge(length: Int, limit: Int)
    /// A reply whose bytes run past the parser's bound.
    case replyTooLarge(limit: Int)
    /// A reply whose aggregates (attributes included) hold more elements than the parser's bound.
    case tooManyElements(count: Int, limit: Int)
    /// Aggregates nested deeper than the parser's bound.
    case nestedTooDeeply(limit: Int)

    public var description: String {
        switch self {
        case .unknownType(let byte): "unknown RESP type byte \(byte)"
        case .malformed(let reason): "malformed RESP: \(reason)"
        case .bulkTooLarge(let length, let limit): "bulk string of \(length) bytes exceeds the \(limit)-byte limit"
        case .replyTooLarge(let limit): "reply exceeds the \(limit)-byte limit"
        case .tooManyElements(let count, let limit): "reply of \(count) elements exceeds the \(limit)-element limit"
        case .nestedTooDeeply(let limit): "aggregates nested deeper than \(limit)"
        }
    }
}
