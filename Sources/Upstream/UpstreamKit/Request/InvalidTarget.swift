/// Why an already encoded target was refused when an `EncodedTarget` was built.
///
/// Each would let the target leave the base path, split the request or mean something else to
/// the upstream than to the gateway, so it is refused rather than repaired. The descriptions are
/// safe to show the client whose target it was.
public enum InvalidTarget: Error, Sendable, Equatable, CustomStringConvertible {
    /// A non-empty path that does not start with `/`.
    case notAPath
    /// A byte that is not visible ASCII, a `#`, or a `?` in the path.
    case invalidCharacter
    /// A `%` not followed by two hexadecimal digits, in the path.
    case invalidEscape
    /// A control character (NUL, CR, LF, …) once the path is percent-decoded.
    case controlCharacter
    /// A `.` or `..` segment once the path is percent-decoded, whatever `;` parameters follow it
    /// (`DotSegmentScan`), which servers resolve against the path.
    case dotSegment

    public var description: String {
        switch self {
        case .notAPath: "the path must start with /"
        case .invalidCharacter: "the target holds a character that is not allowed"
        case .invalidEscape: "the path holds an invalid percent escape"
        case .controlCharacter: "the path holds a control character"
        case .dotSegment: "the path holds a '.' or '..' segment (parameters after ';' included)"
        }
    }
}
