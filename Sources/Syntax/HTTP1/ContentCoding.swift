public import HTTPBasics
/// The content coding a response's `Content-Encoding` names (RFC 9110 §8.4): how its body was
/// compressed, beneath any transfer coding.
public enum ContentCoding: Sendable, Equatable {
    /// No field, an empty one, or `identity`: the body is as it is.
    case identity
    /// `gzip` or `x-gzip`.
    case gzip
    /// `deflate`.
    case deflate
    /// Any other coding, a list of codings or repeated fields.
    case unsupported

    /// The coding `value` names, in any case.
    init(_ value: UnsafeBufferPointer<UInt8>) {
        if value.isEmpty || ASCII.equalsLowercased(value, "identity") {
            self = .identity
        } else if ASCII.equalsLowercased(value, "gzip") || ASCII.equalsLowercased(value, "x-gzip") {
            self = .gzip
        } else if ASCII.equalsLowercased(value, "deflate") {
            self = .deflate
        } else {
            self = .unsupported
        }
    }

    /// The coding of `headers` as it is named in errors: the `Content-Encoding` values if they are
    /// short tokens, which says what the upstream sent without quoting arbitrary bytes of it.
    public static func name(in headers: HTTPHeaders) -> String {
        let value = headers.values(named: "Content-Encoding").joined(separator: ", ")
        let isShortList = value.utf8.count <= 32 && value.utf8.allSatisfy { FieldSyntax.isTokenByte($0) || $0 == ASCII.comma || $0 == ASCII.space }
        return isShortList ? value : "an unnamed coding"
    }
}
