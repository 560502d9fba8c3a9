import ASCIISyntax
import HTTPBasics

/// A path and query below an upstream's base URL that arrive already percent-encoded, as a
/// proxy route passes on what its client sent: sent byte for byte, once checked that they can
/// neither leave the base path nor split the request.
///
/// ```swift
/// let target = try EncodedTarget(path: "/a/b%20c", query: "x=1")   // below https://h/api: /api/a/b%20c?x=1
/// ```
///
/// Unlike `Path`, nothing is encoded here: the client's spelling (`%2F`, `+`, `%7E`) reaches the
/// upstream unchanged, so a checked target must be refused, not repaired.
public struct EncodedTarget: Sendable, Hashable, CustomStringConvertible {
    /// What follows the base path: empty, or starting with `/`.
    public let path: String
    /// The query after `?`, as received; nil when there is no `?`.
    public let query: String?

    /// - Throws: `InvalidTarget` for a non-empty path not starting with `/`; a byte that is not
    ///   visible ASCII, or `#`, in either part, or `?` in the path; an invalid `%` escape in the
    ///   path; a control character, or a dot segment (`DotSegmentScan`: `.` or `..` before any
    ///   `;` parameters, with `\` separating segments as `/` does), once the path is percent-decoded.
    public init(path: some StringProtocol, query: String?) throws(InvalidTarget) {
        if let first = path.utf8.first, first != UInt8(ascii: "/") { throw .notAPath }
        try Self.checkPath(path.utf8)
        if let query {
            guard query.utf8.allSatisfy({ Self.isTargetByte($0) }) else { throw .invalidCharacter }
        }
        self.path = String(path)
        self.query = query
    }

    public var description: String {
        guard let query else { return path }
        return path + "?" + query
    }

    /// Decodes `path` on the fly, refusing what `init` documents.
    private static func checkPath(_ path: some Collection<UInt8>) throws(InvalidTarget) {
        var dotSegments = DotSegmentScan()
        var index = path.startIndex
        while index != path.endIndex {
            let byte = path[index]
            path.formIndex(after: &index)
            guard isTargetByte(byte), byte != UInt8(ascii: "?") else { throw .invalidCharacter }
            var decoded = byte
            if byte == UInt8(ascii: "%") {
                guard index != path.endIndex, let high = HexDigit.value(of: path[index]) else { throw .invalidEscape }
                path.formIndex(after: &index)
                guard index != path.endIndex, let low = HexDigit.value(of: path[index]) else { throw .invalidEscape }
                path.formIndex(after: &index)
                decoded = high << 4 | low
            }
            if decoded < 0x20 || decoded == 0x7F { throw .controlCharacter }
            dotSegments.add(decoded)
        }
        if dotSegments.foundDotSegment { throw .dotSegment }
    }

    /// Visible ASCII but `#`, which ends a target.
    private static func isTargetByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "#")
    }
}
