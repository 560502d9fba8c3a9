/// The best round of one benchmark.
struct BenchmarkResult: Sendable {
    let name: String
    let iterations: Int
    let wallTime: Duration
    let cpuTime: Duration

    var nanosecondsPerOperation: Double { Self.nanoseconds(wallTime) / Double(iterations) }
    var cpuNanosecondsPerOperation: Double { Self.nanoseconds(cpuTime) / Double(iterations) }
    var operationsPerSecond: Double { 1e9 / nanosecondsPerOperation }

    static let tableHeader = pad("benchmark", 60) + pad("time/op", 12, right: true) + pad("cpu/op", 12, right: true)
        + pad("ops/s", 14, right: true)

    /// One aligned table row; times in ns below 10 µs, else µs.
    var tableRow: String {
        Self.pad(name, 60) + Self.pad(Self.format(nanosecondsPerOperation), 12, right: true)
            + Self.pad(Self.format(cpuNanosecondsPerOperation), 12, right: true)
            + Self.pad(String(Int(operationsPerSecond.rounded())), 14, right: true)
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    private static func format(_ nanoseconds: Double) -> String {
        if nanoseconds < 10_000 { return String(Int(nanoseconds.rounded())) + " ns" }
        return String(Int((nanoseconds / 1000).rounded())) + " µs"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(width - text.count, 1))
        return right ? padding + text : text + padding
    }
}
