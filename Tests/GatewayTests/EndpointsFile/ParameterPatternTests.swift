import Testing

@testable import Gateway

/// The regular expression of a text parameter in the endpoints file: a whole-value match.
@Suite("Endpoints file: parameter patterns")
struct ParameterPatternTests {
    @Test("matches the whole value; a trailing line terminator does not slip past the end")
    func wholeValue() throws {
        let digits = try ParameterPattern("[0-9]+")
        #expect(digits.matches("123"))
        #expect(!digits.matches("123a"))
        #expect(!digits.matches("a123"))
        for terminator in ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"] {
            #expect(!digits.matches("123" + terminator), "123 followed by \(terminator.unicodeScalars.first!.escaped(asASCII: true))")
        }
    }

    @Test("a pattern that closes the wrapping group to escape the anchors is refused")
    func escapingTheAnchors() {
        #expect(throws: ParameterPattern.InvalidPattern.self) { try ParameterPattern(#"[0-9]+)|(.*"#) }
        #expect(throws: ParameterPattern.InvalidPattern.self) { try ParameterPattern("[a-") }
    }
}
