/// Every benchmark, grouped by the layer it measures, run one after the other.
struct BenchmarkSuite: Sendable {
    /// Substrings of the names to run; empty runs all.
    let filters: [String]
    let runner: BenchmarkRunner

    private static let offlineBenchmarks = WireBenchmarks.all + RouterBenchmarks.all + JSONBenchmarks.all + CompressionBenchmarks.all

    func list() async throws {
        try await withServers { networkBenchmarks in
            for benchmark in Self.offlineBenchmarks + networkBenchmarks { print(benchmark.name) }
        }
    }

    func run() async throws {
        print(BenchmarkResult.tableHeader)
        for benchmark in Self.offlineBenchmarks where isSelected(benchmark.name) {
            print(try await runner.run(benchmark).tableRow)
        }
        try await withServers { networkBenchmarks in
            for benchmark in networkBenchmarks where isSelected(benchmark.name) {
                print(try await runner.run(benchmark).tableRow)
            }
        }
    }

    /// Runs `body` with the benchmarks that talk to the servers in this process, while they serve.
    private func withServers(_ body: ([Benchmark]) async throws -> Void) async throws {
        let servers = try await BenchmarkServers()
        do {
            try await body(try servers.benchmarks())
        } catch {
            await servers.stop()
            throw error
        }
        await servers.stop()
    }

    private func isSelected(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.contains($0) }
    }
}
