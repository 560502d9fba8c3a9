import Foundation
import JSONCoding
import Testing

/// The word-at-a-time string scans, the in-order key lookup and the borrowed keys of encoding
/// coding paths, at their edges.
@Suite struct FastPathTests {
    /// Bytes the scans must stop at, and neighbours they must not stop at.
    static let specials: [String] = ["\"", "\\", "\n", "\u{0}", "\u{1f}", "é", "😀"]
    static let ordinary: [String] = [" ", "/", "!", "\u{7f}", "~"]

    /// Every length up to 20 with the character at every position, so it falls in the first,
    /// a middle and the last word, and in the bytes after the last whole word.
    static func strings(around character: String) -> [String] {
        (0...20).flatMap { length in
            (0...length).map { position in
                String(repeating: "a", count: position) + character + String(repeating: "b", count: length - position)
            }
        }
    }

    @Test(arguments: specials + ordinary)
    func encodedStringsMatchFoundationAtEveryPosition(_ character: String) throws {
        let strings = Self.strings(around: character)
        let foundation = JSONEncoder()
        foundation.outputFormatting = .withoutEscapingSlashes
        #expect(try JSONByteEncoder().encode(strings) == Array(try foundation.encode(strings)))
    }

    @Test(arguments: specials + ordinary)
    func decodedStringsRoundTripAtEveryPosition(_ character: String) throws {
        let strings = Self.strings(around: character)
        let bytes = try JSONByteEncoder().encode(strings)
        #expect(try JSONByteDecoder().decode([String].self, from: bytes) == strings)
    }

    @Test func controlCharacterAfterPlainBytesIsRejectedWhereItIs() throws {
        for position in 0...17 {
            let text = "[\"" + String(repeating: "a", count: position) + "\u{1}b\"]"
            let error = try #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode([String].self, from: text.bytes) }
            #expect(error.reason == .invalidSyntax)
            #expect(error.byteOffset == position + 2)
        }
    }

    @Test func shortDecimalsMatchFoundation() throws {
        let thirds: Double = 1.0 / 3
        let sum: Double = 0.1 + 0.2
        let belowLimit: Double = 0.001 - 1e-19
        var values: [Double] = [0.001, 0.05, 0.1, 0.2, 0.3, thirds, sum, 4.5, 7.25, 123.456, 999.999, belowLimit]
        values += [8_589_934_591.5, 8_589_934_591.999, 8_589_934_592.5, 8_589_934_592.125, 0.000_999, 0.0015, 1.0005, 2.675]
        for step in stride(from: -20_000, through: 20_000, by: 7) {
            let number = Double(step)
            values += [number / 1000, number / 100, number / 10]
        }
        var generator = RobustnessTests.SeededGenerator(state: 0xD0_0B1E)
        values += (0..<2_000).map { _ in Double.random(in: 0..<10_000, using: &generator) }
        values += (0..<2_000).map { _ in (Double.random(in: -10_000..<10_000, using: &generator) * 100).rounded() / 100 }
        values += values.map { $0.nextUp } + values.map { $0.nextDown }
        let foundation = JSONEncoder()
        #expect(try JSONByteEncoder().encode(values) == Array(try foundation.encode(values)))
    }

    @Test func keysAskedOutOfOrderAndRepeatedAreFound() throws {
        struct Reordered: Decodable, Equatable {
            let c: Int, a: Int, b: Int, again: Int

            enum CodingKeys: String, CodingKey { case a, b, c }

            init(c: Int, a: Int, b: Int, again: Int) {
                (self.c, self.a, self.b, self.again) = (c, a, b, again)
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                c = try container.decode(Int.self, forKey: .c)
                a = try container.decode(Int.self, forKey: .a)
                b = try container.decode(Int.self, forKey: .b)
                again = try container.decode(Int.self, forKey: .b)
            }
        }
        let decoded = try JSONByteDecoder().decode([Reordered].self, from: #"[{"a":1,"b":2,"c":3},{"b":5,"c":6,"a":4}]"#.bytes)
        #expect(decoded == [Reordered(c: 3, a: 1, b: 2, again: 2), Reordered(c: 6, a: 4, b: 5, again: 5)])
        let missing = try #require(throws: JSONDecodingError.self) {
            try JSONByteDecoder().decode([Reordered].self, from: #"[{"a":1,"b":2,"c":3},{"c":6,"b":5}]"#.bytes)
        }
        #expect(missing.reason == .keyNotFound)
        #expect(missing.codingPath == "[1].a")
    }

    @Test func keyLookupSkipsNestedValuesAndExtraKeys() throws {
        struct Pair: Decodable, Equatable { let first: [[Int]]; let second: String? }
        let text = #"{"extra":{"first":0,"second":"no"},"first":[[1],[{"second":2}]],"more":null,"second":null}"#.bytes
        let error = try #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode(Pair.self, from: text) }
        #expect(error.codingPath == "first[1][0]")
        let valid = #"{"extra":{"first":0,"second":"no"},"first":[[1],[]],"more":null,"second":null}"#.bytes
        #expect(try JSONByteDecoder().decode(Pair.self, from: valid) == Pair(first: [[1], []], second: nil))
    }

    /// One reference wide, like an array, but not one.
    final class Box: Decodable {
        let value: Int
    }

    @Test func arraysOfEveryShapeDecode() throws {
        let decoder = JSONByteDecoder()
        #expect(try decoder.decode([Int].self, from: "[]".bytes) == [])
        #expect(try decoder.decode([[Int]].self, from: "[[1,2],[],[3]]".bytes) == [[1, 2], [], [3]])
        #expect(try decoder.decode([Int?].self, from: "[1,null,3]".bytes) == [1, nil, 3])
        #expect(try decoder.decode([String].self, from: #"["a","b\n"]"#.bytes) == ["a", "b\n"])
        #expect(try decoder.decode([URL].self, from: #"["https://example.com/a"]"#.bytes) == [URL(string: "https://example.com/a")])
        #expect(try decoder.decode([String: [Int]].self, from: #"{"k":[1]}"#.bytes) == ["k": [1]])
        #expect(try decoder.decode([Box].self, from: #"[{"value":1},{"value":3}]"#.bytes).map(\.value) == [1, 3])
        #expect(try decoder.decode(Box.self, from: #"{"value":2}"#.bytes).value == 2)
        #expect(try decoder.decode(Set<Int>.self, from: "[1,1,2]".bytes) == [1, 2])
    }

    @Test func arrayErrorsKeepTheirPaths() throws {
        let element = try #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode([[Int]].self, from: #"[[1],[2,"x"]]"#.bytes) }
        #expect(element.reason == .typeMismatch)
        #expect(element.codingPath == "[1][1]")
        let notArray = try #require(throws: JSONDecodingError.self) { try JSONByteDecoder().decode([Int].self, from: #"{"a":1}"#.bytes) }
        #expect(notArray.reason == .typeMismatch)
        #expect(notArray.message == "expected an array, found an object")
    }

    @Test func denseDocumentsGrowTheTape() throws {
        let count = 5_000
        let empties = "[" + Array(repeating: "[]", count: count).joined(separator: ",") + "]"
        #expect(try JSONByteDecoder().decode([[Int]].self, from: empties.bytes).count == count)
        let digits = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
        #expect(try JSONByteDecoder().decode([Int].self, from: digits.bytes) == Array(repeating: 1, count: count))
    }

    /// A model that writes its own coding path.
    struct PathRecorder: Encodable {
        func encode(to encoder: any Encoder) throws {
            let path = encoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: "/")
            var container = encoder.singleValueContainer()
            try container.encode(path)
        }
    }

    struct Outer: Encodable {
        enum CodingKeys: String, CodingKey { case first, list, nested }
        enum InnerKeys: String, CodingKey { case deep }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(PathRecorder(), forKey: .first)
            try container.encode([PathRecorder(), PathRecorder()], forKey: .list)
            var nested = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .nested)
            try nested.encode(Optional(PathRecorder()), forKey: .deep)
        }
    }

    @Test func codingPathsNameBorrowedAndKeptKeys() throws {
        let bytes = try JSONByteEncoder().encode(Outer())
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"first":"first","list":["list/[0]","list/[1]"],"nested":{"deep":"nested/deep"}}"#)
    }

    @Test func errorPathsNameKeysOfValuesThatReturned() throws {
        struct Failing: Encodable {
            enum CodingKeys: String, CodingKey { case done, failing }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(["ok": 1.5], forKey: .done)
                try container.encode(["bad": [Double.nan]], forKey: .failing)
            }
        }
        let error = try #require(throws: JSONEncodingError.self) { try JSONByteEncoder().encode([Failing()]) }
        #expect(error.codingPath == "[0].failing.bad[0]")
    }

    @Test func deepNestingGrowsTheContainerStack() throws {
        struct Deep: Encodable {
            let depth: Int
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                if depth > 0 { try container.encode(Deep(depth: depth - 1)) }
            }
        }
        let bytes = try JSONByteEncoder().encode(Deep(depth: 100))
        #expect(bytes == Array(repeating: UInt8(ascii: "["), count: 101) + Array(repeating: UInt8(ascii: "]"), count: 101))
    }
}
