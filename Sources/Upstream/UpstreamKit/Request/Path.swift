import HTTPBasics

/// A request path below an upstream's base URL, built from segments that each stay one segment.
///
/// Every segment is percent-encoded on its own, so a parameter such as `a/b` or `a%2Fb` ends up
/// as `a%2Fb` or `a%252Fb`: inside its segment, never a new one. A segment that would climb
/// where a server decodes before it normalises (`../admin`, `..;x`) is refused instead.
///
/// ```swift
/// let path = try Path("people", String(id), trailingSlash: true)   // "/people/1/"
/// ```
public struct Path: Sendable, Hashable, CustomStringConvertible {
    /// The percent-encoded path, starting with `/`.
    public let encoded: String

    /// - Throws: `InvalidPathSegment` for an empty segment, one holding NUL, or one holding a dot
    ///   segment as a server that decodes `%2F` or `%3B` would see it (`DotSegmentScan`: `..`,
    ///   `..;x`, `../a`, `a\.`).
    public init(segments: [String], trailingSlash: Bool = false) throws(InvalidPathSegment) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segments.reduce(1) { $0 + $1.utf8.count + 1 })
        for segment in segments {
            if segment.isEmpty { throw .empty }
            if DotSegmentScan.holdsDotSegment(segment.utf8) { throw .dotSegment }
            if segment.utf8.contains(0) { throw .containsNUL }
            bytes.append(UInt8(ascii: "/"))
            PercentEncoding.append(segment, to: &bytes)
        }
        if trailingSlash || segments.isEmpty {
            bytes.append(UInt8(ascii: "/"))
        }
        encoded = String(decoding: bytes, as: UTF8.self)
    }

    /// - Throws: `InvalidPathSegment` for an empty segment, one holding NUL, or one holding a dot
    ///   segment as a server that decodes `%2F` or `%3B` would see it (`DotSegmentScan`: `..`,
    ///   `..;x`, `../a`, `a\.`).
    public init(_ segments: String..., trailingSlash: Bool = false) throws(InvalidPathSegment) {
        try self.init(segments: segments, trailingSlash: trailingSlash)
    }

    public var description: String { encoded }
}
