public import ASCIISyntax
/// The one rule every path the gateway checks or builds follows for segments that a server
/// resolves against the path (RFC 3986 §5.2.4), fed the path's bytes once percent-decoded.
///
/// A segment is a dot segment when what comes before its first `;` is `.` or `..`: servlet
/// containers (Tomcat, Jetty, and others on the Java servlet model) remove path parameters
/// before they normalise, so `..;`, `..;x=1` and `%2e%2e%3b` climb there as `..` does.
/// Segments end at `/` and at `\`, which some servers take for `/`, whether they came literally
/// or percent-encoded: a server that decodes `%2F` before normalising sees `..%2F` as `../`.
/// Decoding is the caller's, once: `%252e` is the three bytes `%2e`, not a dot, as a server that
/// decodes once sees it.
///
/// ```swift
/// var scan = DotSegmentScan()
/// for byte in "/tc/..;/admin".utf8 { scan.add(byte) }
/// scan.foundDotSegment   // true
/// ```
///
/// For this package's modules; public so that inlinable code of other modules may use it.
public struct DotSegmentScan: Sendable {
    /// The dots the current segment starts with, or `notDots` once it holds anything else
    /// before its parameters.
    @usableFromInline var dots = 0
    /// Whether the current segment's parameters (after its first `;`) have begun.
    @usableFromInline var inParameters = false
    /// Whether a segment that ended was a dot segment.
    @usableFromInline var foundInEndedSegment = false

    @usableFromInline static let notDots = 3

    @inlinable
    public init() {}

    /// Adds the next decoded byte of the path.
    @inlinable
    public mutating func add(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"):
            foundInEndedSegment = foundInEndedSegment || isDotSegment
            dots = 0
            inParameters = false
        case _ where inParameters:
            break
        case UInt8(ascii: ";"):
            inParameters = true
        case UInt8(ascii: "."):
            dots = min(dots + 1, Self.notDots)
        default:
            dots = Self.notDots
        }
    }

    /// Whether any segment so far, the one not ended yet included, is a dot segment.
    @inlinable
    public var foundDotSegment: Bool { foundInEndedSegment || isDotSegment }

    @inlinable
    var isDotSegment: Bool { dots == 1 || dots == 2 }

    /// Whether `bytes`, decoded, hold a dot segment: `..;x`, `a\..`, `../b` do; `...`, `.a`, `;..` do not.
    @inlinable
    public static func holdsDotSegment(_ bytes: some Collection<UInt8>) -> Bool {
        // A string's bytes are contiguous: scanned as a buffer, a byte costs a compare or two.
        if let found = bytes.withContiguousStorageIfAvailable({ holdsDotSegment(inBuffer: $0) }) { return found }
        return Array(bytes).withUnsafeBufferPointer { holdsDotSegment(inBuffer: $0) }
    }

    @inlinable
    static func holdsDotSegment(inBuffer bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most segments hold no dot at all: one plain search settles them.
        guard bytes.contains(UInt8(ascii: ".")) else { return false }
        var scan = DotSegmentScan()
        for byte in bytes { scan.add(byte) }
        return scan.foundDotSegment
    }

    /// Whether `bytes`, whose `%` escapes are all valid, hold a dot segment once decoded.
    @inlinable
    public static func holdsDotSegment(percentEncoded bytes: some Collection<UInt8>) -> Bool {
        guard bytes.contains(UInt8(ascii: ".")) || bytes.contains(UInt8(ascii: "%")) else { return false }
        var scan = DotSegmentScan()
        var index = bytes.startIndex
        while index != bytes.endIndex {
            var byte = bytes[index]
            bytes.formIndex(after: &index)
            if byte == UInt8(ascii: "%"), index != bytes.endIndex, let high = HexDigit.value(of: bytes[index]) {
                let next = bytes.index(after: index)
                if next != bytes.endIndex, let low = HexDigit.value(of: bytes[next]) {
                    byte = high << 4 | low
                    index = bytes.index(after: next)
                }
            }
            scan.add(byte)
        }
        return scan.foundDotSegment
    }
}
