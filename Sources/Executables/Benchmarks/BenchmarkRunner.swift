/// Runs a benchmark long enough to trust: calibrates the batch size, then keeps the fastest
/// of a few rounds (the machine is shared, and the fastest round is the least disturbed one).
struct BenchmarkRunner: Sendable {
    /// Wall time spent per benchmark, calibration included.
    var timePerBenchmark: Duration
    var rounds = 3
    /// When set, each benchmark performs exactly this many operations, once, without
    /// calibration: the same work on every run, for instruction counts.
    var fixedIterations: Int?

    func run(_ benchmark: Benchmark) async throws -> BenchmarkResult {
        if let fixedIterations {
            return try await measure(benchmark, iterations: fixedIterations)
        }
        let roundTime = timePerBenchmark / (rounds + 1)
        var iterations = 1
        var sample = try await measure(benchmark, iterations: iterations)
        // Grow the batch until one takes a tenth of a round, then size rounds from it.
        while sample.wallTime < roundTime / 10, iterations < 1 << 30 {
            iterations *= 4
            sample = try await measure(benchmark, iterations: iterations)
        }
        let ratio = roundTime / max(sample.wallTime, .nanoseconds(1))
        iterations = max(1, Int(Double(iterations) * ratio))
        var best = sample
        for _ in 0..<rounds {
            let result = try await measure(benchmark, iterations: iterations)
            if result.nanosecondsPerOperation < best.nanosecondsPerOperation { best = result }
        }
        return best
    }

    private func measure(_ benchmark: Benchmark, iterations: Int) async throws -> BenchmarkResult {
        let clock = ContinuousClock()
        let cpuStart = CPUTime.now
        let start = clock.now
        try await benchmark.body(iterations)
        let wallTime = clock.now - start
        return BenchmarkResult(name: benchmark.name, iterations: iterations, wallTime: wallTime, cpuTime: CPUTime.now - cpuStart)
    }
}
