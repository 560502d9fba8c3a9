public import HTTPBasics
/// Why `HTTPClient.send` produced no response.
///
/// Reasons name what went wrong, never the bytes involved, so they are safe to log even when
/// requests or responses carry credentials.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole response did not arrive within the timeout (connecting included).
    case timedOut
    /// No connection could be opened: refused, unreachable, unresolvable.
    case connectionFailed(reason: String)
    /// The server's TLS certificate did not verify (untrusted, expired, issued for another host):
    /// OpenSSL's reason, such as `certificate has expired`. Nothing of the request was sent.
    case certificateRejected(reason: String)
    /// The server closed or reset the connection before the response was complete.
    case connectionClosed
    /// The response broke HTTP framing rules or the head limits; the connection was closed.
    case invalidResponse(reason: String)
    /// The response body is larger than the limit given to `send`; the connection was closed.
    case bodyTooLarge(limit: Int)
    /// The body is in a content coding the request did not ask for, or its encoded bytes are
    /// truncated or corrupt: the reason names the coding. The connection was closed.
    case undecodableBody(reason: String)
    /// The request cannot be written safely, for example a header value holding a line break.
    case invalidRequest(reason: String)
    /// Every connection to the origin is busy and too many requests already wait for one.
    case tooManyWaiters
    /// The request's `bodyStream` failed while it was sent (its own source broke off, grew over
    /// a limit, or stalled); the connection was closed.
    case requestBodyFailed(HTTPBodyError)
    /// The calling task was cancelled.
    case cancelled
    /// The client was shut down.
    case shutDown

    public var description: String {
        switch self {
        case .timedOut: "timed out"
        case .connectionFailed(let reason): "connection failed: \(reason)"
        case .certificateRejected(let reason): "certificate not trusted: \(reason)"
        case .connectionClosed: "connection closed before the response was complete"
        case .invalidResponse(let reason): "invalid response: \(reason)"
        case .bodyTooLarge(let limit): "response body larger than \(limit) bytes"
        case .undecodableBody(let reason): "undecodable body: \(reason)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .tooManyWaiters: "too many requests waiting for a connection"
        case .requestBodyFailed(let error): "request body failed: \(error)"
        case .cancelled: "cancelled"
        case .shutDown: "client shut down"
        }
    }
}
