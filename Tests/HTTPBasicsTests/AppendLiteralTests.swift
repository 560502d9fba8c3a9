import HTTPBasics
import Testing

@Suite("Appending a literal's bytes")
struct AppendLiteralTests {
    @Test("a literal's UTF-8 bytes go after what the array held, non-ASCII included")
    func appendsBytes() {
        var bytes: [UInt8] = [0x41]
        bytes.append(literal: "b\r\n")
        bytes.append(literal: "")
        bytes.append(literal: "é")
        #expect(bytes == [0x41, 0x62, 0x0D, 0x0A, 0xC3, 0xA9])
    }
}
