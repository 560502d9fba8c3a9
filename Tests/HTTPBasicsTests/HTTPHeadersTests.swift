import Testing

@testable import HTTPBasics

@Suite struct HTTPHeadersTests {
    @Test func syntaxIsCheckedOnceAndReportsTheFirstBadField() {
        var headers: HTTPHeaders = ["Accept": "application/json", "X-Note": "a\r\nInjected: yes", "Bad Name": "v"]
        #expect(headers.checkSyntax()?.name == "X-Note")
        #expect(headers.isChecked(0))
        #expect(!headers.isChecked(1))
        #expect(!headers.isChecked(2))

        var good: HTTPHeaders = ["Accept": "application/json", "User-Agent": "gateway/1"]
        #expect(good.checkSyntax() == nil)
        #expect(good.isChecked(1))
        good.add("Cookie", "a\nb")
        #expect(!good.isChecked(2), "a field added later is not taken as checked")
        #expect(good.checkSyntax()?.name == "Cookie")
    }

    @Test func removingAFieldUnchecksThoseAfterIt() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "C": "3"]
        #expect(headers.checkSyntax() == nil)
        headers.remove("B")
        #expect(headers.isChecked(0))
        #expect(!headers.isChecked(1))
        headers.set("A", "4")
        #expect(!headers.isChecked(0))
        headers.remove("missing")
        #expect(headers.checkSyntax() == nil)
        #expect(headers.isChecked(1))
    }

    @Test func equalityIgnoresWhatWasChecked() {
        var checked: HTTPHeaders = ["A": "1"]
        _ = checked.checkSyntax()
        #expect(checked == ["A": "1"])
    }
}
