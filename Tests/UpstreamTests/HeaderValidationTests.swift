import Testing
@testable import Upstream

@Suite struct HeaderValidationTests {
    /// RFC 9110 §5.6.2's `tchar`, and no other byte.
    @Test func tokenBytesAreExactlyTheRFCCharacters() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HeaderValidation.isTokenByte(byte) == tchars.contains(byte), "byte \(byte)")
        }
    }

    @Test func namesAreNonEmptyTokens() {
        #expect(HeaderValidation.isToken("X-Request-ID"))
        #expect(!HeaderValidation.isToken(""))
        #expect(!HeaderValidation.isToken("Bad Name"))
        #expect(!HeaderValidation.isToken("Näme"))
        let line = "X-Note: v"
        #expect(HeaderValidation.isToken(line.prefix(6)))
        #expect(!HeaderValidation.isToken(line.prefix(7)))
    }

    @Test func valuesRefuseOnlyLineBreaksAndNUL() {
        #expect(HeaderValidation.isValidValue(""))
        #expect(HeaderValidation.isValidValue("text/html; q=0.9, é\t😀"))
        for forbidden in ["a\rb", "a\nb", "a\u{0}b"] {
            #expect(!HeaderValidation.isValidValue(forbidden))
        }
        let line = "X-Note: ab\n"
        #expect(!HeaderValidation.isValidValue(line.dropFirst(8)))
        #expect(HeaderValidation.isValidValue(line.dropFirst(8).dropLast()))
    }
}
