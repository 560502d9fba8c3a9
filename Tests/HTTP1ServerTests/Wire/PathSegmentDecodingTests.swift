import ASCIISyntax
import HTTP1
import Testing

/// A route's path parameter once decoded: issue #30's dot segments with parameters are refused
/// as `.` and `..` are, since the value goes into an upstream's path.
@Suite("Path parameters: decoding")
struct PathSegmentDecodingTests {
    @Test("a dot segment, with or without parameters, in any spelling, is no parameter", arguments: [
        "..", ".", "..;", ".;", "..;x=1", "%2e%2e;", "%2E%2e%3B", ".%2e%3bjsessionid=1",
    ])
    func refused(raw: String) {
        #expect(PercentDecoding.decodePathSegment(Substring(raw).utf8) == nil)
    }

    @Test("dots and semicolons that are no dot segment decode as they are")
    func decoded() {
        #expect(PercentDecoding.decodePathSegment(Substring("...").utf8) == "...")
        #expect(PercentDecoding.decodePathSegment(Substring("a;v=1").utf8) == "a;v=1")
        #expect(PercentDecoding.decodePathSegment(Substring("%252e%252e;").utf8) == "%2e%2e;")
    }
}
