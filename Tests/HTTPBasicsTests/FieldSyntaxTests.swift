import Testing

@testable import HTTPBasics

@Suite struct FieldSyntaxTests {
    /// RFC 9110 §5.6.2's `tchar`, and no other byte.
    @Test func tokenBytesAreExactlyTheRFCCharacters() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(FieldSyntax.isTokenByte(byte) == tchars.contains(byte), "byte \(byte)")
        }
    }

    @Test func namesAreNonEmptyTokens() {
        #expect(FieldSyntax.isToken("X-Request-ID"))
        #expect(!FieldSyntax.isToken(""))
        #expect(!FieldSyntax.isToken("Bad Name"))
        #expect(!FieldSyntax.isToken("Näme"))
        let line = "X-Note: v"
        #expect(FieldSyntax.isToken(line.prefix(6)))
        #expect(!FieldSyntax.isToken(line.prefix(7)))
    }

    @Test func valuesRefuseControlCharactersButTab() {
        #expect(FieldSyntax.isFieldValue(""))
        #expect(FieldSyntax.isFieldValue("text/html; q=0.9, é\t😀 and some more text past a word"))
        for forbidden in ["a\rb", "a\nb", "a\u{0}b", "a\u{1}b", "a\u{7F}b", "a long value of more than one word\r\n"] {
            #expect(!FieldSyntax.isFieldValue(forbidden))
        }
        let line = "X-Note: ab\n"
        #expect(!FieldSyntax.isFieldValue(line.dropFirst(8)))
        #expect(FieldSyntax.isFieldValue(line.dropFirst(8).dropLast()))
    }

    /// The eight-at-a-time scans say what the byte tests say, for every byte near a class's edge
    /// at every place of values shorter and longer than a word, starting at every alignment.
    @Test func wholeWordScansAgreeWithTheByteTests() {
        var disagreements: [String] = []
        for length in 1...19 {
            for alignment in 0..<8 {
                var storage = [UInt8](repeating: UInt8(ascii: "a"), count: alignment + length)
                for position in alignment..<storage.count {
                    for byte in edgeBytes {
                        storage[position] = byte
                        storage.withUnsafeBufferPointer { whole in
                            let value = UnsafeBufferPointer(rebasing: whole[alignment...])
                            if FieldSyntax.isFieldValue(value) != FieldSyntax.isFieldValueByte(byte) {
                                disagreements.append("field value, length \(length), byte \(byte) at \(position - alignment)")
                            }
                            if FieldSyntax.isVisible(value) != FieldSyntax.isVisible(byte) {
                                disagreements.append("visible, length \(length), byte \(byte) at \(position - alignment)")
                            }
                        }
                    }
                    storage[position] = UInt8(ascii: "a")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// The control characters and the bytes on either side of a class's limits.
    private let edgeBytes = Array(0...0x22) + [0x61, 0x7E, 0x7F, 0x80, 0xC3, 0xFF] as [UInt8]
}
