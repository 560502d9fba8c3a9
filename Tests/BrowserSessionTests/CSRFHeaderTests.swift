import Testing

@testable import BrowserSession

@Suite struct CSRFHeaderTests {
    @Test func onlyTheConfiguredValueOnceSatisfiesIt() throws {
        let header = try #require(CSRFHeader())
        #expect(header.name == "x-csrf")
        #expect(header.isSatisfied(by: ["1"]))
        #expect(!header.isSatisfied(by: [String]()))
        #expect(!header.isSatisfied(by: ["0"]))
        #expect(!header.isSatisfied(by: ["1", "1"]))
    }

    @Test func namesAndValuesAreChecked() {
        #expect(CSRFHeader(name: "", value: "1") == nil)
        #expect(CSRFHeader(name: "X:CSRF") == nil)
        #expect(CSRFHeader(name: "X-CSRF", value: "1\r\nX: y") == nil)
        #expect(CSRFHeader(name: "X-Requested-With", value: "fetch")?.name == "x-requested-with")
    }
}
