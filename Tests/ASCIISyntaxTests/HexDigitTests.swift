import ASCIISyntax
import Testing

@Suite("Hexadecimal digits")
struct HexDigitTests {
    @Test func readsDigitsInEitherCase() {
        let values = (0...255).map(UInt8.init).compactMap { byte in HexDigit.value(of: byte).map { (byte, $0) } }
        #expect(values.map(\.0) == Array("0123456789ABCDEFabcdef".utf8))
        #expect(values.map(\.1) == Array(0...15) + Array(10...15))
    }

    @Test func writesLowerCaseDigits() {
        #expect((0...15).map { HexDigit.lowercase(of: $0) } == Array("0123456789abcdef".utf8))
    }
}
