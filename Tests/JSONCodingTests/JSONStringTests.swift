import JSONCoding
import Testing

/// `JSONString.append`, the escaper behind problem details and log lines: JSON's escapes, and DEL
/// escaped as well, wherever the byte falls in the word-at-a-time scan.
@Suite struct JSONStringTests {
    private func appended(_ string: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "x")]
        JSONString.append(string, to: &bytes)
        return String(decoding: bytes.dropFirst(), as: UTF8.self)
    }

    @Test func escapesQuotesBackslashesControlsAndDelete() {
        #expect(appended("\"quoted\" \\ \n\r\t\u{08}\u{0C} \u{01}\u{1F}\u{7F} / é😀") == #""\"quoted\" \\ \n\r\t\b\f \u0001\u001f\u007f / é😀""#)
        #expect(appended("") == #""""#)
    }

    @Test(arguments: [
        ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{0}", #"\u0000"#), ("\u{1f}", #"\u001f"#), ("\u{7f}", #"\u007f"#),
        ("é", "é"), ("😀", "😀"), ("~", "~"), ("/", "/"),
    ])
    func escapesAtEveryPosition(character: String, escaped: String) {
        for length in 0...20 {
            for position in 0...length {
                let before = String(repeating: "a", count: position), after = String(repeating: "b", count: length - position)
                #expect(appended(before + character + after) == "\"" + before + escaped + after + "\"")
            }
        }
    }
}
