/// How the body of a request is delimited on the wire (RFC 9112 §6.3).
public enum BodyFraming: Sendable, Equatable {
    /// No body follows the head.
    case none
    /// Exactly this many bytes follow; already checked against the body limit.
    case contentLength(Int)
    /// The body follows in chunks; decode it with `ChunkedBodyDecoder`.
    case chunked
}
