import JSONCoding
import Testing

/// No input makes the decoder crash or hang: random bytes, truncations and mutations of real
/// payloads, all from a fixed seed so failures reproduce.
@Suite struct RobustnessTests {
    /// SplitMix64: tiny, deterministic, good enough to generate test input.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    static let payloads = [
        ScenarioFixtures.shuffle, ScenarioFixtures.draw, ScenarioFixtures.luke, ScenarioFixtures.tatooine,
        ScenarioFixtures.xWing, ScenarioFixtures.menu, ScenarioFixtures.dishOfTheDay,
        #"{"a":[1,-2.5e+3,"\u00e9\ud83d\ude00\n",true,false,null,{"b":{}}]}"#,
    ]

    /// Decodes into several models; any outcome but a crash is fine.
    func decodeEverywhere(_ bytes: [UInt8]) {
        let decoder = JSONByteDecoder()
        _ = try? decoder.decode(JSONValue.self, from: bytes)
        _ = try? decoder.decode([Dish].self, from: bytes)
        _ = try? decoder.decode(Draw.self, from: bytes)
        _ = try? decoder.decode(Person.self, from: bytes)
        _ = try? decoder.decode([String: Int].self, from: bytes)
    }

    @Test func everyTruncationFailsCleanly() {
        for payload in Self.payloads {
            let bytes = payload.bytes
            for length in 0..<bytes.count {
                decodeEverywhere(Array(bytes[..<length]))
            }
        }
    }

    @Test func mutatedPayloadsNeverCrash() {
        var generator = SeededGenerator(state: 0x5EED)
        let interesting: [UInt8] = Array(#"{}[]",:\/u0123456789.eE+-tfn "#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]
        for _ in 0..<3000 {
            var bytes = Self.payloads.randomElement(using: &generator)?.bytes ?? []
            for _ in 0...Int.random(in: 0...4, using: &generator) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = interesting.randomElement(using: &generator) ?? 0
                case 1: bytes.remove(at: index)
                default: bytes.insert(interesting.randomElement(using: &generator) ?? 0, at: index)
                }
            }
            decodeEverywhere(bytes)
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SeededGenerator(state: 42)
        let alphabet: [UInt8] = Array(#"{}[]",:\u0"1e-.tfnrl "#.utf8) + [0xC3, 0xA9, 0xFF]
        for _ in 0..<3000 {
            let length = Int.random(in: 0...64, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator) ?? 0
                    : UInt8.random(in: 0...255, using: &generator)
            }
            decodeEverywhere(bytes)
        }
    }

    @Test func randomValidDocumentsRoundTrip() throws {
        var generator = SeededGenerator(state: 7)
        for _ in 0..<300 {
            let value = Self.randomValue(depth: 0, using: &generator)
            let bytes = try JSONByteEncoder().encode(value)
            #expect(try JSONByteDecoder().decode(JSONValue.self, from: bytes) == value)
        }
    }

    static func randomValue(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        let choice = Int.random(in: 0..<(depth < 4 ? 6 : 4), using: &generator)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
            let number = Double(bitPattern: bits)
            return .number(number.isFinite ? number : Double(Int32.random(in: .min ... .max, using: &generator)) / 8)
        case 3:
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x1_0FFF, using: &generator))
            }
            return .string(String(String.UnicodeScalarView(scalars)))
        case 4:
            return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        default:
            var object: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                object["k\(index)\u{e9}\""] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(object)
        }
    }
}
