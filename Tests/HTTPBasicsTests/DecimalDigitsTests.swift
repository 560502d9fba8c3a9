import HTTPBasics
import Testing

@Suite("Decimal digits")
struct DecimalDigitsTests {
    @Test(arguments: [
        (0, 1, "0"),
        (7, 1, "7"),
        (7, 3, "007"),
        (1994, 4, "1994"),
        (12345, 2, "12345"),
        (Int.max, 1, "9223372036854775807"),
        (-5, 2, "00"),
    ])
    func appendsDigits(value: Int, minimumCount: Int, text: String) {
        var bytes = Array("n=".utf8)
        DecimalDigits.append(value, minimumCount: minimumCount, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "n=" + text)
    }
}
