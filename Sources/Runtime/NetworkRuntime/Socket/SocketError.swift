import Glibc

/// Why a socket operation did not complete.
public enum SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The deadline passed before the operation could complete.
    case timedOut
    /// The peer closed or reset the connection, or the socket was closed locally.
    case closed
    /// The waiting task was cancelled.
    case cancelled
    /// A host name could not be resolved to an address.
    case unresolvable(host: String)
    /// A system call failed with `errno`.
    case failed(call: String, errno: Int32)
    /// The peer's TLS certificate did not verify: OpenSSL's reason, such as `certificate has expired`.
    case certificateRejected(reason: String)
    /// TLS failed for another reason than the certificate: a protocol error or an alert from the peer.
    case tlsFailed(reason: String)

    public var description: String {
        switch self {
        case .timedOut: "timed out"
        case .closed: "connection closed"
        case .cancelled: "cancelled"
        case .unresolvable(let host): "cannot resolve host \(host)"
        case .failed(let call, let errno): "\(call) failed: \(String(cString: strerror(errno)))"
        case .certificateRejected(let reason): "certificate not trusted: \(reason)"
        case .tlsFailed(let reason): "TLS failed: \(reason)"
        }
    }

    /// The error for a failed call, mapping the errno values that mean "the peer went away" to `.closed`.
    static func from(call: String, errno: Int32) -> SocketError {
        switch errno {
        case ECONNRESET, EPIPE, ENOTCONN, ESHUTDOWN: .closed
        case ETIMEDOUT: .timedOut
        default: .failed(call: call, errno: errno)
        }
    }
}
