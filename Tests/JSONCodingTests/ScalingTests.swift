import Glibc
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
        // CPU time of this thread, not wall time: on a busy machine a long run is preempted more
        // often than a short one, which skewed a wall-clock comparison by several times.
        func cpuTime(elements count: Int) throws -> Duration {
            let document = ("[" + Array(repeating: "1", count: count).joined(separator: ",") + "]").bytes
            let start = threadCPUTime()
            let probes = try JSONByteDecoder().decode([IndexProbe].self, from: document)
            let end = threadCPUTime()
            #expect(probes.last?.index == count - 1)
            return end - start
        }
        // The fastest of three runs, so that cache misses of a first run do not count.
        func fastest(elements count: Int) throws -> Duration {
            try (0..<3).map { _ in try cpuTime(elements: count) }.min() ?? .zero
        }
        let small = try fastest(elements: 1000)
        let large = try fastest(elements: 16000)
        // Sixteen times the elements: about sixteen times the time, quadratic growth would be 256;
        // the bound sits between them, far from both.
        #expect(large < small * 64)
    }

    @Test func codingPathOfDeepValues() throws {
        struct Outer: Decodable { let a: [[String: Probe]] }
        let outer = try JSONByteDecoder().decode(Outer.self, from: #"{"x":1,"a":[{},{"q":[1,{"z":2}],"k":{}}]}"#.bytes)
        #expect(outer.a[1]["k"]?.path == ".a[1].k")
        #expect(outer.a[1]["q"]?.path == ".a[1].q")
    }
}

private func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}
