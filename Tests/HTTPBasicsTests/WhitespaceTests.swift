import HTTPBasics
import Testing

@Suite("HTTP whitespace")
struct WhitespaceTests {
    @Test(arguments: [
        (" \tvalue with spaces\t ", "value with spaces"),
        ("value", "value"),
        (" \t ", ""),
        ("\nvalue\r", "\nvalue\r"),
    ])
    func trimsSpacesAndTabsOnly(text: String, trimmed: String) {
        #expect(text[...].trimmingWhitespace == trimmed[...])
    }
}
