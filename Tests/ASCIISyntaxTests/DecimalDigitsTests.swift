import ASCIISyntax
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

    @Test(arguments: [(0, "0"), (7, "7"), (10, "10"), (999_999, "999999"), (-3, "0"), (Int.max, "9223372036854775807")])
    func writesIntoABuffer(value: Int, text: String) {
        let written = String(unsafeUninitializedCapacity: 24) { buffer in
            buffer[0] = UInt8(ascii: "=")
            return DecimalDigits.write(value, into: buffer, at: 1)
        }
        #expect(written == "=" + text)
    }

    @Test func digitsAreZeroThroughNine() {
        let digits = (0...255).map(UInt8.init).filter(DecimalDigits.isDigit)
        #expect(digits == Array("0123456789".utf8))
    }
}
