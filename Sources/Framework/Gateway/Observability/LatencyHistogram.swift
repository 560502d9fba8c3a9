/// Counts of durations in fixed Prometheus buckets, plus their sum: a plain value, kept behind
/// its owner's lock.
struct LatencyHistogram: Sendable {
    /// Upper bounds of the buckets, in seconds (Prometheus `le`).
    static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    private static let boundNanoseconds: [Int64] = bounds.map { Int64($0 * 1e9) }

    /// Per bucket, not cumulative; the last slot counts what exceeds every bound.
    private(set) var counts = [Int](repeating: 0, count: bounds.count + 1)
    private(set) var sumNanoseconds: Int64 = 0
    private(set) var count = 0

    mutating func record(_ duration: Duration) {
        let nanoseconds = duration.nanoseconds
        var index = 0
        while index < LatencyHistogram.boundNanoseconds.count, nanoseconds > LatencyHistogram.boundNanoseconds[index] {
            index += 1
        }
        counts[index] += 1
        sumNanoseconds &+= nanoseconds
        count += 1
    }

    /// Appends the `_bucket`, `_sum` and `_count` lines of metric `name` with `labels` (`key="value"`).
    func render(_ name: String, labels: String, into text: inout String) {
        var cumulative = 0
        for (index, bound) in LatencyHistogram.bounds.enumerated() {
            cumulative += counts[index]
            text += "\(name)_bucket{\(labels),le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "\(name)_bucket{\(labels),le=\"+Inf\"} \(count)\n"
        text += "\(name)_sum{\(labels)} \(Double(sumNanoseconds) / 1e9)\n"
        text += "\(name)_count{\(labels)} \(count)\n"
    }
}
