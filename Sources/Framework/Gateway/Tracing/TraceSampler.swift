/// Which traces the gateway records, as `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`
/// name them (the OpenTelemetry SDK's environment variables): a pure decision from the trace id
/// and the client's sampled flag, so every participant that reads the same id agrees.
struct TraceSampler: Sendable, Equatable {
    /// The decision for a trace the gateway starts, or for every trace when parents are ignored.
    enum Rule: Sendable, Equatable {
        case alwaysOn
        case alwaysOff
        /// Records this share of traces, by the trace id's random low half.
        case traceIDRatio(Double)
    }

    let rule: Rule
    /// Whether a client's `traceparent` decides (the `parentbased_` samplers).
    let followsParent: Bool

    /// The sampler names the specification defines, which `init(name:argument:)` takes.
    static let names = [
        "always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio",
    ]

    init(rule: Rule, followsParent: Bool) {
        self.rule = rule
        self.followsParent = followsParent
    }

    /// The sampler `name` (one of `names`) with its `argument`, the ratio of the `traceidratio`
    /// samplers (1 when nil); nil when the name is unknown or the ratio not a number from 0 to 1.
    init?(name: String, argument: String?) {
        let followsParent = name.hasPrefix("parentbased_")
        let ruleName = followsParent ? String(name.dropFirst("parentbased_".count)) : name
        switch ruleName {
        case "always_on": rule = .alwaysOn
        case "always_off": rule = .alwaysOff
        case "traceidratio":
            guard let ratio = Double(argument ?? "1"), ratio >= 0, ratio <= 1 else { return nil }
            rule = .traceIDRatio(ratio)
        default: return nil
        }
        self.followsParent = followsParent
    }

    /// Whether the trace `traceID` is recorded; `parentSampled` is the sampled flag of the
    /// client's `traceparent`, nil when the gateway started the trace.
    func samples(traceID: (high: UInt64, low: UInt64), parentSampled: Bool?) -> Bool {
        if followsParent, let parentSampled { return parentSampled }
        switch rule {
        case .alwaysOn: return true
        case .alwaysOff: return false
        case .traceIDRatio(let ratio):
            // As the Go and Java SDKs compare: the low 8 bytes, less their top bit, against the
            // ratio's share of 2⁶³, so ratio 1 takes every id and 0 none.
            return traceID.low >> 1 < UInt64(ratio * 9_223_372_036_854_775_808.0)
        }
    }
}
