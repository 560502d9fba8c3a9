import JSONCoding
import Testing

/// Hostile sizes stay linear.
@Suite struct ScalingTests {
    struct Probe: Decodable {
        let path: String
        init(from decoder: any Decoder) throws {
            path = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
    }

    struct IndexProbe: Decodable {
        let index: Int?
        init(from decoder: any Decoder) throws {
            index = decoder.codingPath.last?.intValue
        }
    }

    /// Coding paths (asked for by models, and built for every error, even under `try?`) cost
    /// O(depth); walked from the root, they made decoding quadratic in the array length.
    @Test func codingPathsStayLinear() throws {
        func duration(elements count: Int) throws -> Duration {
            let document = ("[" + Array(repeating: "1", count: count).joined(separator: ",") + "]").bytes
            return try ContinuousClock().measure {
                let probes = try JSONByteDecoder().decode([IndexProbe].self, from: document)
                #expect(probes.last?.index == count - 1)
            }
        }
        // The fastest of three runs, so that tests running alongside do not skew the comparison.
        func fastest(elements count: Int) throws -> Duration {
            try (0..<3).map { _ in try duration(elements: count) }.min() ?? .zero
        }
        let small = try fastest(elements: 1000)
        let large = try fastest(elements: 16000)
        // Sixteen times the elements: about sixteen times the time, quadratic growth would be 256;
        // the bound sits between them, far from both, so a busy machine cannot tip it.
        #expect(large < small * 64)
    }

    @Test func codingPathOfDeepValues() throws {
        struct Outer: Decodable { let a: [[String: Probe]] }
        let outer = try JSONByteDecoder().decode(Outer.self, from: #"{"x":1,"a":[{},{"q":[1,{"z":2}],"k":{}}]}"#.bytes)
        #expect(outer.a[1]["k"]?.path == ".a[1].k")
        #expect(outer.a[1]["q"]?.path == ".a[1].q")
    }
}
