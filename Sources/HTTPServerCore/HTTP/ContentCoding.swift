/// The content coding a response's `Content-Encoding` names (RFC 9110 §8.4): how its body was
/// compressed, beneath any transfer coding.
public enum ContentCoding: Sendable, Equatable {
    /// No field, an empty one, or `identity`: the body is as it is.
    case identity
    /// `gzip` or `x-gzip`.
    case gzip
    /// `deflate`.
    case deflate
    /// Any other coding, a list of codings or repeated fields: the value as sent.
    case unsupported(String)

    /// The coding `value` names, in any case.
    init(_ value: UnsafeBufferPointer<UInt8>) {
        if value.isEmpty || ASCII.equalsLowercased(value, "identity") {
            self = .identity
        } else if ASCII.equalsLowercased(value, "gzip") || ASCII.equalsLowercased(value, "x-gzip") {
            self = .gzip
        } else if ASCII.equalsLowercased(value, "deflate") {
            self = .deflate
        } else {
            self = .unsupported(String(decoding: value, as: UTF8.self))
        }
    }

    /// The coding as it is named in errors: its name if it is a short token, which says what the
    /// upstream sent without quoting arbitrary bytes of it.
    public var name: String {
        switch self {
        case .identity: "identity"
        case .gzip: "gzip"
        case .deflate: "deflate"
        case .unsupported(let value):
            value.utf8.count <= 32 && value.utf8.allSatisfy { ASCII.isToken($0) || $0 == ASCII.comma || $0 == ASCII.space }
                ? value : "an unnamed coding"
        }
    }
}
