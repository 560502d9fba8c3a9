import HTTPBasics
import Testing

@Suite("ASCII case-insensitive equality")
struct ASCIICaseTests {
    @Test(arguments: [
        ("Content-Length", "content-length", true),
        ("SET-COOKIE", "Set-Cookie", true),
        ("", "", true),
        ("Host", "Hos", false),
        ("Host", "Hosts", false),
        ("Host", "Post", false),
        // 0x40 and 0x60 differ only in the case bit but are not letters.
        ("@", "`", false),
        ("[", "{", false),
        ("Ärger", "ärger", false),
        ("Ärger", "Ärger", true),
    ])
    func comparesLettersIgnoringCaseOnly(left: String, right: String, isEqual: Bool) {
        #expect(left.equalsIgnoringASCIICase(right) == isEqual)
        #expect(right.equalsIgnoringASCIICase(left) == isEqual)
    }

    @Test func comparesSubstrings() {
        let line = "X-Request-ID: abc"
        let name = line.prefix { $0 != ":" }
        #expect(name.equalsIgnoringASCIICase("x-request-id"))
        #expect(!name.equalsIgnoringASCIICase("x-request"))
    }
}
