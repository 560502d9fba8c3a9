/// Why a Redis command did not get its answer. None of them carries a password.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Redis is marked down and its back-off has not passed, or a connection is being opened:
    /// the caller goes on without Redis instead of waiting.
    case unavailable
    /// No answer within the command timeout; the connection is closed.
    case timedOut
    /// The connection could not be opened, authenticated or selected: the reason, without secrets.
    case connectionFailed(reason: String)
    /// The connection closed before the answer arrived.
    case connectionClosed
    /// The server sent bytes that are not RESP, or an answer the command cannot have.
    case protocolViolation(reason: String)
    /// The server answered with an error reply, such as `NOSCRIPT …` or `WRONGTYPE …`.
    case server(message: String)

    public var description: String {
        switch self {
        case .unavailable: "Redis unavailable"
        case .timedOut: "Redis timed out"
        case .connectionFailed(let reason): "Redis connection failed: \(reason)"
        case .connectionClosed: "Redis closed the connection"
        case .protocolViolation(let reason): "Redis protocol violation: \(reason)"
        case .server(let message): "Redis error: \(message)"
        }
    }

    /// Whether the error says something about Redis's health (it is down, slow or broken) rather
    /// than about one command, whose error reply proves the server answers.
    public var isConnectionFailure: Bool {
        switch self {
        case .server: false
        default: true
        }
    }
}
