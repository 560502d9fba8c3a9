import Synchronization

/// Requests answered on one route, by status, with their latency: one lock per route, taken
/// once per request, and no strings built on the hot path.
final class RouteMetrics: Sendable {
    let route: String
    private let statistics = Mutex(Statistics())

    private struct Statistics {
        /// Indexed by status code minus 100.
        var statusCounts = [Int](repeating: 0, count: 500)
        var latency = LatencyHistogram()
        /// Optional parts that failed, by name, in the order they first failed.
        var degraded: [(part: String, count: Int)] = []
    }

    init(route: String) {
        self.route = route
    }

    func record(status: Int, duration: Duration) {
        statistics.withLock {
            if (100..<600).contains(status) { $0.statusCounts[status - 100] += 1 }
            $0.latency.record(duration)
        }
    }

    /// Counts the optional parts that failed in one request.
    func recordDegraded(_ parts: [String]) {
        statistics.withLock { statistics in
            for part in parts {
                if let index = statistics.degraded.firstIndex(where: { $0.part == part }) {
                    statistics.degraded[index].count += 1
                } else {
                    statistics.degraded.append((part, 1))
                }
            }
        }
    }

    func renderDegraded(into text: inout String) {
        for (part, count) in statistics.withLock({ $0.degraded }) {
            text += "gateway_degraded_parts_total{route=\"\(PrometheusText.escape(route))\",part=\"\(PrometheusText.escape(part))\"} \(count)\n"
        }
    }

    func renderRequests(into text: inout String) {
        let counts = statistics.withLock { $0.statusCounts }
        for (offset, count) in counts.enumerated() where count > 0 {
            text += "gateway_requests_total{route=\"\(PrometheusText.escape(route))\",status=\"\(offset + 100)\"} \(count)\n"
        }
    }

    func renderLatency(into text: inout String) {
        let latency = statistics.withLock { $0.latency }
        latency.render("gateway_request_duration_seconds", labels: "route=\"\(PrometheusText.escape(route))\"", into: &text)
    }
}
