import Foundation
import JSONCoding
import Testing

/// Our output must equal Foundation's `JSONEncoder` (with `.withoutEscapingSlashes`, and
/// `.sortedKeys` where objects are involved, since Foundation on Linux does not keep key order).
@Suite struct FoundationCompatibilityTests {
    static let doubles: [Double] = [
        7.5, 4.5, 8, 10, 200_000, 0, -0.0, 1, -1, 0.1, 0.2, 1.0 / 3, 12.5, 1e15, 1e16, 1e21, 1e22, 1e23,
        9_007_199_254_740_992, 9_007_199_254_740_991, -9_007_199_254_740_992, 123_456_789.125, 1e-5, 0.0001,
        .leastNonzeroMagnitude, 2.2250738585072014e-308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 149_999, 3.14159,
    ]

    static let floats: [Float] = [7.5, 10, 0.1, 1e10, 3.4e38, 16_777_216, 1e7, 1.0 / 3, -0.0, .leastNonzeroMagnitude]

    static let strings: [String] = [
        "", "plain", "Penne all'Arrabbiata", "Tiramisù", "quote \" backslash \\ slash /",
        "tab\tnewline\ncarriage\rbackspace\u{8}formfeed\u{c}", "\u{0}\u{1}\u{1f}\u{7f}", "emoji 😀 and € and \u{2028}\u{2029}\u{FEFF}",
        String(repeating: "long string without escapes ", count: 40),
    ]

    static func foundationBytes<T: Encodable>(_ value: T, sortedKeys: Bool = false) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = sortedKeys ? [.withoutEscapingSlashes, .sortedKeys] : [.withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    @Test(arguments: doubles)
    func doubleMatchesFoundation(_ value: Double) throws {
        #expect(try JSONByteEncoder().encode(value) == Self.foundationBytes(value))
        #expect(try JSONByteEncoder().encode([value]) == Self.foundationBytes([value]))
    }

    @Test(arguments: floats)
    func floatMatchesFoundation(_ value: Float) throws {
        #expect(try JSONByteEncoder().encode(value) == Self.foundationBytes(value))
    }

    @Test(arguments: strings)
    func stringMatchesFoundation(_ value: String) throws {
        #expect(try JSONByteEncoder().encode(value) == Self.foundationBytes(value))
    }

    @Test func everyASCIICharacterMatchesFoundation() throws {
        let all = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(try JSONByteEncoder().encode(all) == Self.foundationBytes(all))
    }

    @Test func integerExtremesMatchFoundation() throws {
        let encoder = JSONByteEncoder()
        #expect(try encoder.encode([Int.min, Int.max, 0, -1]) == Self.foundationBytes([Int.min, Int.max, 0, -1]))
        #expect(try encoder.encode([UInt64.max]) == Self.foundationBytes([UInt64.max]))
        #expect(try encoder.encode([Int8.min, Int8.max]) == Self.foundationBytes([Int8.min, Int8.max]))
        #expect(try encoder.encode([UInt8.max]) == Self.foundationBytes([UInt8.max]))
        #expect(try encoder.encode([Int16.min]) == Self.foundationBytes([Int16.min]))
        #expect(try encoder.encode([Int32.min]) == Self.foundationBytes([Int32.min]))
        #expect(try encoder.encode([UInt32.max]) == Self.foundationBytes([UInt32.max]))
        #expect(try encoder.encode([UInt.max]) == Self.foundationBytes([UInt.max]))
    }

    @Test func trimmedMenuMatchesFoundation() throws {
        let dishes = try JSONByteDecoder().decode([Dish].self, from: ScenarioFixtures.menu.bytes)
        let items = dishes.map { MenuItem(name: $0.name, price: $0.price, spicy: $0.spicy) }
        #expect(try JSONByteEncoder().encode(items) == Self.foundationBytes(items, sortedKeys: true))
    }

    @Test func sectionsMatchFoundation() throws {
        let sections = [ScenarioOutputTests.pastas, ScenarioOutputTests.desserts]
        #expect(try JSONByteEncoder().encode(sections) == Self.foundationBytes(sections, sortedKeys: true))
    }

    @Test func optionalsAndNestedArraysMatchFoundation() throws {
        let value: [[Int?]] = [[1, nil, 3], [], [nil]]
        #expect(try JSONByteEncoder().encode(value) == Self.foundationBytes(value))
    }

    @Test func urlIsWrittenAsAStringLikeFoundation() throws {
        let urls = [URL(string: "https://swapi.dev/api/planets/1/")]
        #expect(try JSONByteEncoder().encode(urls) == Self.foundationBytes(urls))
    }

    @Test func valueThatEncodesNothingBecomesAnEmptyObjectLikeFoundation() throws {
        let values = [Silent(), Silent()]
        #expect(try JSONByteEncoder().encode(values) == Self.foundationBytes(values))
    }
}
