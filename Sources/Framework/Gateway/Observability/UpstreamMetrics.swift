import Synchronization
import UpstreamKit

/// Calls to one upstream by outcome, with their latency, what the shared cache did for them,
/// and whether its circuit is open.
final class UpstreamMetrics: Sendable {
    let name: String
    /// Whether the upstream's circuit refuses calls now, read when rendering.
    private let isCircuitOpen: @Sendable () -> Bool
    private let statistics = Mutex(Statistics())

    private struct Statistics {
        var outcomeCounts = [Int](repeating: 0, count: UpstreamOutcome.allCases.count)
        var latency = LatencyHistogram()
        var cacheCounts = [Int](repeating: 0, count: UpstreamMetrics.cacheResults.count)
        var coalesced = 0
    }

    /// The `result` label values of cache lookups, in the order they are rendered.
    private static let cacheResults = ["hit", "stale", "stale-if-error", "revalidated", "refreshed", "miss"]

    /// Where `outcome` is counted in `cacheResults`; a bypass is not a lookup.
    private static func index(of outcome: CacheStatus.Outcome) -> Int? {
        switch outcome {
        case .hit: 0
        case .staleWhileRevalidate: 1
        case .staleIfError: 2
        case .revalidated: 3
        case .refreshed: 4
        case .miss: 5
        case .bypass: nil
        }
    }

    init(name: String, isCircuitOpen: @escaping @Sendable () -> Bool = { false }) {
        self.name = name
        self.isCircuitOpen = isCircuitOpen
    }

    func record(_ outcome: UpstreamOutcome, cache: CacheStatus?, duration: Duration) {
        let cacheIndex = cache.flatMap { Self.index(of: $0.outcome) }
        statistics.withLock {
            $0.outcomeCounts[outcome.rawValue] += 1
            $0.latency.record(duration)
            if let cacheIndex { $0.cacheCounts[cacheIndex] += 1 }
            if cache?.collapsed == true { $0.coalesced += 1 }
        }
    }

    func renderCalls(into text: inout String) {
        let counts = statistics.withLock { $0.outcomeCounts }
        for outcome in UpstreamOutcome.allCases where counts[outcome.rawValue] > 0 {
            text += "gateway_upstream_calls_total{upstream=\"\(PrometheusText.escape(name))\",outcome=\"\(outcome.label)\"} \(counts[outcome.rawValue])\n"
        }
    }

    func renderCircuit(into text: inout String) {
        text += "gateway_upstream_circuit_open{upstream=\"\(PrometheusText.escape(name))\"} \(isCircuitOpen() ? 1 : 0)\n"
    }

    func renderLatency(into text: inout String) {
        let latency = statistics.withLock { $0.latency }
        latency.render("gateway_upstream_call_duration_seconds", labels: "upstream=\"\(PrometheusText.escape(name))\"", into: &text)
    }

    func renderCacheLookups(into text: inout String) {
        let counts = statistics.withLock { $0.cacheCounts }
        for (index, result) in Self.cacheResults.enumerated() {
            text += "gateway_upstream_cache_lookups_total{upstream=\"\(PrometheusText.escape(name))\",result=\"\(result)\"} \(counts[index])\n"
        }
    }

    func renderCoalesced(into text: inout String) {
        let coalesced = statistics.withLock { $0.coalesced }
        text += "gateway_upstream_cache_coalesced_total{upstream=\"\(PrometheusText.escape(name))\"} \(coalesced)\n"
    }
}
