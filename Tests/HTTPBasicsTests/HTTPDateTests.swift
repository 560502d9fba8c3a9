import HTTPBasics
import Testing

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_795_305_599, "Sat, 21 Nov 2026 23:59:59 GMT"),
        (4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT"),
    ])
    func formatsAndParsesIMFFixdate(seconds: Int, text: String) {
        #expect(String(decoding: HTTPDate.format(secondsSince1970: seconds), as: UTF8.self) == text)
        #expect(HTTPDate.secondsSince1970(text) == seconds)
    }

    @Test func parsesTheCookieDateVariant() {
        #expect(HTTPDate.secondsSince1970("Sun, 06-Nov-1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.secondsSince1970("Wed, 21 Oct 2015 07:28:00 GMT") == 1_445_412_480)
    }

    @Test func rejectsWhatIsNotADate() {
        #expect(HTTPDate.secondsSince1970("garbage") == nil)
        #expect(HTTPDate.secondsSince1970("Sun, 32 Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.secondsSince1970("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func readsTheThreeFormsStrictly(value: String) {
        #expect(HTTPDate.secondsSince1970(strictly: value) == 784_111_777)
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 AEST", "Sun, 06 Nov 94 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT",
        "Sun, 06  Nov 1994 08:49:37 GMT", "Sun, 06-Nov-1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT ",
        "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 UTC", "Sun Nov 6 08:49:37 1994", "0", "",
    ])
    func refusesAnyOtherShape(value: String) {
        #expect(HTTPDate.secondsSince1970(strictly: value) == nil)
    }

    @Test func appendsTheCurrentDate() {
        var buffer = Array("Date: ".utf8)
        HTTPDate.appendCurrent(to: &buffer)
        let date = String(decoding: buffer.dropFirst(6), as: UTF8.self)
        #expect(date.count == 29)
        #expect(HTTPDate.secondsSince1970(date) != nil)
    }
}
