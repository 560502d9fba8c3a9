import Synchronization

/// Calls to one upstream by outcome, with their latency.
final class UpstreamMetrics: Sendable {
    let name: String
    private let statistics = Mutex(Statistics())

    private struct Statistics {
        var outcomeCounts = [Int](repeating: 0, count: UpstreamOutcome.allCases.count)
        var latency = LatencyHistogram()
    }

    init(name: String) {
        self.name = name
    }

    func record(_ outcome: UpstreamOutcome, duration: Duration) {
        statistics.withLock {
            $0.outcomeCounts[outcome.rawValue] += 1
            $0.latency.record(duration)
        }
    }

    func renderCalls(into text: inout String) {
        let counts = statistics.withLock { $0.outcomeCounts }
        for outcome in UpstreamOutcome.allCases where counts[outcome.rawValue] > 0 {
            text += "gateway_upstream_calls_total{upstream=\"\(PrometheusText.escape(name))\",outcome=\"\(outcome.label)\"} \(counts[outcome.rawValue])\n"
        }
    }

    func renderLatency(into text: inout String) {
        let latency = statistics.withLock { $0.latency }
        latency.render("gateway_upstream_call_duration_seconds", labels: "upstream=\"\(PrometheusText.escape(name))\"", into: &text)
    }
}
