/// Every benchmark, grouped by the layer it measures, run one after the other.
struct BenchmarkSuite: Sendable {
    /// Substrings of the names to run; empty runs all.
    let filters: [String]
    let runner: BenchmarkRunner

    private static let offlineBenchmarks = WireBenchmarks.all + RouterBenchmarks.all + JSONBenchmarks.all

    func list() async throws {
        try await withStubServer { port in
            for benchmark in try Self.offlineBenchmarks + Self.networkBenchmarks(port: port) { print(benchmark.name) }
        }
    }

    func run() async throws {
        print(BenchmarkResult.tableHeader)
        for benchmark in Self.offlineBenchmarks where isSelected(benchmark.name) {
            print(try await runner.run(benchmark).tableRow)
        }
        try await withStubServer { port in
            for benchmark in try Self.networkBenchmarks(port: port) where isSelected(benchmark.name) {
                print(try await runner.run(benchmark).tableRow)
            }
        }
    }

    /// The benchmarks that talk to the in-process server on `port`.
    private static func networkBenchmarks(port: Int) throws -> [Benchmark] {
        ClientBenchmarks.all(port: port) + (try UpstreamBenchmarks.all(port: port))
    }

    /// Runs `body` with our own server answering SWAPI's person 1 on a loopback port.
    private func withStubServer(_ body: (Int) async throws -> Void) async throws {
        let server = try StubServer(body: ScenarioPayloads.person)
        do {
            try await body(server.port)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func isSelected(_ name: String) -> Bool {
        filters.isEmpty || filters.contains { name.contains($0) }
    }
}
