import Testing

@testable import Gateway

@Suite("Trace sampler")
struct TraceSamplerTests {
    @Test("names and arguments as OTEL_TRACES_SAMPLER takes them")
    func parsing() {
        #expect(TraceSampler(name: "always_on", argument: nil) == TraceSampler(rule: .alwaysOn, followsParent: false))
        #expect(TraceSampler(name: "parentbased_always_off", argument: "x") == TraceSampler(rule: .alwaysOff, followsParent: true))
        #expect(TraceSampler(name: "traceidratio", argument: nil) == TraceSampler(rule: .traceIDRatio(1), followsParent: false))
        #expect(TraceSampler(name: "parentbased_traceidratio", argument: "0.25") == TraceSampler(rule: .traceIDRatio(0.25), followsParent: true))
        for name in TraceSampler.names { #expect(TraceSampler(name: name, argument: "0.5") != nil) }
    }

    @Test("unknown names and ratios outside 0...1 are refused", arguments: [("jaeger_remote", "1"), ("traceidratio", "1.5"), ("traceidratio", "-0.1"), ("traceidratio", "half"), ("parentbased_", nil), ("Always_On", nil)] as [(String, String?)])
    func refused(name: String, argument: String?) {
        #expect(TraceSampler(name: name, argument: argument) == nil)
    }

    @Test("a parent-based sampler follows the client's flag and decides alone for traces it starts")
    func parentBased() {
        let sampler = TraceSampler(rule: .alwaysOff, followsParent: true)
        #expect(sampler.samples(traceID: (1, 1), parentSampled: true))
        #expect(!sampler.samples(traceID: (1, 1), parentSampled: false))
        #expect(!sampler.samples(traceID: (1, 1), parentSampled: nil))
        #expect(!TraceSampler(rule: .alwaysOff, followsParent: false).samples(traceID: (1, 1), parentSampled: true))
        #expect(TraceSampler(rule: .alwaysOn, followsParent: false).samples(traceID: (1, 1), parentSampled: false))
    }

    @Test("a ratio takes about its share of spread trace ids, all at 1 and none at 0")
    func ratio() {
        // Spread over the whole range as random ids are, but the same every run (Fibonacci hashing).
        let ids = (0..<10_000).map { index in (high: UInt64(1), low: UInt64(index) &* 0x9E37_79B9_7F4A_7C15) }
        func share(_ ratio: Double) -> Int {
            let sampler = TraceSampler(rule: .traceIDRatio(ratio), followsParent: false)
            return ids.count { sampler.samples(traceID: $0, parentSampled: nil) }
        }
        #expect(share(1) == ids.count)
        #expect(share(0) == 0)
        #expect((2_450...2_550).contains(share(0.25)))
        let sampler = TraceSampler(rule: .traceIDRatio(0.5), followsParent: false)
        #expect(sampler.samples(traceID: (0, 0), parentSampled: nil))
        #expect(!sampler.samples(traceID: (0, .max), parentSampled: nil))
    }
}
