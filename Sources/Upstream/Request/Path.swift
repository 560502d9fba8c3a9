/// A request path below an upstream's base URL, built from segments that each stay one segment.
///
/// Every segment is percent-encoded on its own, so a parameter such as `../admin` or `a%2Fb` ends up
/// as `..%2Fadmin` or `a%252Fb`: inside its segment, never a new one.
///
/// ```swift
/// let path = try Path("people", String(id), trailingSlash: true)   // "/people/1/"
/// ```
public struct Path: Sendable, Hashable, CustomStringConvertible {
    /// The percent-encoded path, starting with `/`.
    public let encoded: String

    /// - Throws: `InvalidPathSegment` for an empty segment, `.`, `..` or a segment holding NUL.
    public init(segments: [String], trailingSlash: Bool = false) throws(InvalidPathSegment) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segments.reduce(1) { $0 + $1.utf8.count + 1 })
        for segment in segments {
            if segment.isEmpty { throw .empty }
            if segment == "." || segment == ".." { throw .dotSegment }
            if segment.utf8.contains(0) { throw .containsNUL }
            bytes.append(UInt8(ascii: "/"))
            PercentEncoding.append(segment, to: &bytes)
        }
        if trailingSlash || segments.isEmpty {
            bytes.append(UInt8(ascii: "/"))
        }
        encoded = String(decoding: bytes, as: UTF8.self)
    }

    /// - Throws: `InvalidPathSegment` for an empty segment, `.`, `..` or a segment holding NUL.
    public init(_ segments: String..., trailingSlash: Bool = false) throws(InvalidPathSegment) {
        try self.init(segments: segments, trailingSlash: trailingSlash)
    }

    public var description: String { encoded }
}
