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
