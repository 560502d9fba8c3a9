import HTTPBasics
import Testing

/// The one dot-segment rule every path check shares (issue #30).
@Suite("Dot segments")
struct DotSegmentScanTests {
    @Test("a segment is a dot segment whatever parameters follow it, between / or \\", arguments: [
        "..", ".", "/..", "/a/../b", "..;", ".;", "..;x=1", "/a/..;/b", "/a/.;jsessionid=1", "a\\..", "..\\a", "/a/..;x\\b", "..;;",
    ])
    func dotSegments(path: String) {
        #expect(DotSegmentScan.holdsDotSegment(path.utf8))
    }

    @Test("other segments are not", arguments: ["", "/", "...", ".a", "a.", "..a", ";..", "/a/;../b", "/a..;/b", "%2e%2e", "/...;/", "a;.."])
    func otherSegments(path: String) {
        #expect(!DotSegmentScan.holdsDotSegment(path.utf8))
    }
}
