import JSONCoding
import Testing

/// RFC 8259 conformance: what must be rejected, and the edge cases that must be accepted.
@Suite struct StrictnessTests {
    static let invalidDocuments: [String] = [
        "", " ", "nul", "tru", "True", "NULL", "[", "]", "{", "}", "[1,]", "[,1]", "[1 2]", "{\"a\":1,}",
        "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "{\"a\":1 \"b\":2}", "{1:2}", "[1]]", "[1] [2]", "1 2", "{} x",
        "01", "-01", "00", "1.", ".5", "-", "+1", "1e", "1e+", "1.e5", "0x10", "NaN", "Infinity", "-Infinity", "1_000",
        "\"unterminated", "\"bad escape \\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\ud800\"", "\"\\udc00\"",
        "\"\\ud800\\u0041\"", "\"\\ud800x\"", "\"tab\there\"", "\"new\nline\"", "\"\u{1}\"", "'single'",
        "[1,\n", "[\"a\",\"b\"", "{\"a\":[1,2}", "\u{0}", "[1]\u{0}", "\u{a0}1",
    ]

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], [0x22, 0xC3, 0x22],
        [0x22, 0xE2, 0x82, 0x22], [0x22, 0x80, 0x22], [0xEF, 0xBB], [0x22, 0xE2, 0x82],
    ]

    @Test(arguments: invalidDocuments)
    func rejectsInvalidDocument(_ document: String) {
        #expect(throws: JSONDecodingError.self) { try JSONByteDecoder().decode(JSONValue.self, from: document.bytes) }
        let error = try? #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode(JSONValue.self, from: document.bytes) }
        #expect(error?.reason == .invalidSyntax)
    }

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ document: [UInt8]) {
        let error = try? #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode(JSONValue.self, from: document) }
        #expect(error?.reason == .invalidSyntax)
    }

    @Test func acceptsEdgeCases() throws {
        let decoder = JSONByteDecoder()
        #expect(try decoder.decode(JSONValue.self, from: " \t\r\n[ ] ".bytes) == .array([]))
        #expect(try decoder.decode(JSONValue.self, from: "{}".bytes) == .object([:]))
        #expect(try decoder.decode(Int.self, from: "-0".bytes) == 0)
        #expect(try decoder.decode(Double.self, from: "-0.0e-0".bytes) == 0)
        #expect(try decoder.decode(Double.self, from: "1E+2".bytes) == 100)
        #expect(try decoder.decode(String.self, from: #""\u0000""#.bytes) == "\u{0}")
        #expect(try decoder.decode(String.self, from: #""\ud83d\ude00 \u00e9\u20AC \/\b\f\n\r\t\"\\""#.bytes) == "😀 é€ /\u{8}\u{c}\n\r\t\"\\")
        #expect(try decoder.decode(String.self, from: "\"é😀\u{7f}\"".bytes) == "é😀\u{7f}")
        #expect(try decoder.decode(Bool.self, from: [0xEF, 0xBB, 0xBF] + "true".bytes))
        #expect(try decoder.decode(String.self, from: "\"\(String(repeating: "x", count: 100))\"".bytes).count == 100)
    }

    @Test func limitsNesting() throws {
        let limit = JSONByteDecoder.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        _ = try JSONByteDecoder().decode(Ignored.self, from: deepest.bytes)
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let error = try #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode(Ignored.self, from: tooDeep.bytes) }
        #expect(error.reason == .nestingTooDeep)
        let hostile = String(repeating: "{\"a\":[", count: 100_000)
        let hostileError = try #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode(Ignored.self, from: hostile.bytes) }
        #expect(hostileError.reason == .nestingTooDeep)
    }

    @Test func rejectsNumbersOutOfRange() throws {
        let decoder = JSONByteDecoder()
        #expect(try decoder.decode(Int64.self, from: "-9223372036854775808".bytes) == .min)
        #expect(try decoder.decode(UInt64.self, from: "18446744073709551615".bytes) == .max)
        #expect(try decoder.decode(Int8.self, from: "-128".bytes) == -128)
        for (document, reason) in [
            ("9223372036854775808", JSONDecodingError.Reason.numberOutOfRange), ("18446744073709551616", .numberOutOfRange),
            ("128", .numberOutOfRange), ("1.0", .numberOutOfRange), ("1e2", .numberOutOfRange), ("-1", .numberOutOfRange),
            ("99999999999999999999999999", .numberOutOfRange),
        ] {
            let error = try #require(throws: JSONDecodingError.self) {
                if document == "128" {
                    _ = try decoder.decode(Int8.self, from: document.bytes)
                } else if document == "-1" {
                    _ = try decoder.decode(UInt.self, from: document.bytes)
                } else {
                    _ = try decoder.decode(Int.self, from: document.bytes)
                }
            }
            #expect(error.reason == reason, "\(document)")
        }
        #expect(throws: JSONDecodingError.self) { try decoder.decode(Double.self, from: "1e400".bytes) }
        #expect(throws: JSONDecodingError.self) { try decoder.decode(Float.self, from: "1e39".bytes) }
    }

    @Test func readsDoublesExactly() throws {
        let decoder = JSONByteDecoder()
        for text in ["0.1", "4.5", "7.5", "12.5", "3.141592653589793", "1e-7", "123456789012345678", "2.2250738585072014e-308",
                     "1.7976931348623157e308", "5e-324", "0.30000000000000004", "9007199254740993", "-2.5E-3", "1e22", "1e23"] {
            #expect(try decoder.decode(Double.self, from: text.bytes) == Double(text), "\(text)")
        }
        #expect(try decoder.decode(Float.self, from: "0.1".bytes) == Float(0.1))
    }

    /// Accepts any value without reading it.
    private struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
