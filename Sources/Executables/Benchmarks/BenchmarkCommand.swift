import HTTP1Client
import NetworkRuntime

/// The `Benchmarks` executable's arguments and its two modes: the micro-benchmark suite, and
/// the transport comparison against a URL.
enum BenchmarkCommand {
    static let usage = """
        usage: Benchmarks [--filter TEXT] [--time SECONDS | --requests N] [--list]
               Benchmarks transport URL [REQUESTS] [CONCURRENCY]

          --filter TEXT   run only the benchmarks whose name contains TEXT (repeatable)
          --time SECONDS  wall time per benchmark, calibration included (default 0.3)
          --requests N    run each benchmark exactly N operations (requests, for the network ones), once,
                          without calibration: for instruction counts (scripts/instructions-per-request)
          --list          print the benchmark names and exit
          transport       N GETs (default 20000) at C concurrent (default 16) against an http:// URL,
                          pooled HTTPClient vs URLSessionTransport, in node-client.mjs's format
        Build with -c release; debug figures mean nothing.
        """

    static func run(arguments: [String]) async -> Int32 {
        if arguments.first == "transport" {
            return await compareTransports(Array(arguments.dropFirst()))
        }
        var filters: [String] = []
        var runner = BenchmarkRunner(timePerBenchmark: .milliseconds(300))
        var listOnly = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--filter":
                guard let text = remaining.popFirst() else { return fail("--filter needs a value") }
                filters.append(text)
            case "--time":
                guard let text = remaining.popFirst(), let seconds = Double(text), seconds > 0 else {
                    return fail("--time needs a positive number of seconds")
                }
                runner.timePerBenchmark = .milliseconds(Int64(seconds * 1000))
            case "--requests":
                guard let text = remaining.popFirst(), let count = Int(text), count > 0 else {
                    return fail("--requests needs a positive whole number")
                }
                runner.fixedIterations = count
            case "--list":
                listOnly = true
            case "--help", "-h":
                print(usage)
                return 0
            default:
                return fail("unknown argument \(argument)")
            }
        }
        let suite = BenchmarkSuite(filters: filters, runner: runner)
        do {
            // On an event loop, as the server runs its handlers: no hop per await.
            try await Task(executorPreference: EventLoop.shared) {
                try await listOnly ? suite.list() : suite.run()
            }.value
            return 0
        } catch {
            print("benchmark failed: \(error)")
            return 1
        }
    }

    private static func compareTransports(_ arguments: [String]) async -> Int32 {
        guard let url = arguments.first,
            let comparison = TransportComparison(
                url: url,
                requests: arguments.count > 1 ? Int(arguments[1]) ?? 0 : 20_000,
                concurrency: arguments.count > 2 ? Int(arguments[2]) ?? 0 : 16)
        else { return fail("transport needs an http:// URL and positive counts") }
        do {
            try await comparison.run()
            return 0
        } catch {
            print("transport comparison failed: \(error)")
            return 1
        }
    }

    private static func fail(_ message: String) -> Int32 {
        print("Benchmarks: \(message)\n\(usage)")
        return 2
    }
}
