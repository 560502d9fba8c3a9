/// Why a path segment was refused when a `Path` was built.
///
/// These segments would change which resource the path names, so they are refused rather than encoded.
public enum InvalidPathSegment: Error, Sendable, Equatable, CustomStringConvertible {
    /// An empty segment, which would produce `//`.
    case empty
    /// `.` or `..`, also before `;` parameters or beside a `/` or `\` the segment holds
    /// (`DotSegmentScan`), which servers resolve against the path.
    case dotSegment
    /// A NUL byte, which truncates strings in many servers.
    case containsNUL

    public var description: String {
        switch self {
        case .empty: "empty path segment"
        case .dotSegment: "path segment '.' or '..' (parameters after ';' included)"
        case .containsNUL: "path segment containing NUL"
        }
    }
}
