import Foundation
import FoundationTransport
import HTTP1Client
import HTTP1ClientTransport
import HTTPBasics
import NetworkRuntime
import UpstreamKit

/// N GETs at concurrency C against one URL, through the gateway's `PooledTransport` (the pooled
/// `HTTPClient`, on an event loop as in the gateway) and through `URLSessionTransport`, printed in the format of `shared/bench/node-client.mjs` so the
/// three read side by side:
///
/// ```
/// Benchmarks transport http://127.0.0.1:8081/swapi/api/people/1/ 20000 16
/// node shared/bench/node-client.mjs http://127.0.0.1:8081/swapi/api/people/1/ 20000 16
/// ```
struct TransportComparison {
    let host: String
    let port: Int
    let target: String
    let requests: Int
    let concurrency: Int

    init?(url: String, requests: Int, concurrency: Int) {
        guard let components = URLComponents(string: url), components.scheme == "http", let host = components.host,
            requests > 0, concurrency > 0
        else { return nil }
        self.host = host
        self.port = components.port ?? 80
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        self.target = target
        self.requests = requests
        self.concurrency = concurrency
    }

    func run() async throws {
        let pooled = PooledTransport(client: HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: concurrency)))
        // On an event loop, as the gateway's handlers call it: its sockets then stay on that loop.
        let pooledLine = try await Task(executorPreference: EventLoop.shared) {
            try await measure(label: "pooled-transport", send(through: pooled))
        }.value
        print(pooledLine)
        print(try await measure(label: "urlsession-transport", send(through: URLSessionTransport(maximumConnectionsPerHost: concurrency))))
    }

    private func send(through transport: some Transport) -> @Sendable () async throws -> Void {
        let request = TransportRequest(
            method: .get, origin: Origin(scheme: "http", host: host, port: port), target: target,
            maximumResponseBytes: 64 << 20)
        return {
            let response = try await transport.send(request)
            guard response.status.code < 400 else { throw BenchmarkFailure("status \(response.status.code)") }
        }
    }

    /// Warms one connection per worker, then times `requests` sends by `concurrency` workers.
    private func measure(label: String, _ send: @escaping @Sendable () async throws -> Void) async throws -> String {
        let concurrency = concurrency
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency { group.addTask { try await send() } }
            try await group.waitForAll()
        }
        let countdown = RequestCountdown(requests)
        let cpuStart = CPUTime.now
        let elapsed = try await ContinuousClock().measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        while countdown.take() { try await send() }
                    }
                }
                try await group.waitForAll()
            }
        }
        let cpu = CPUTime.now - cpuStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cpuMicroseconds = (Double(cpu.components.seconds) * 1e6 + Double(cpu.components.attoseconds) / 1e12) / Double(requests)
        return "\(label) requests=\(requests) concurrency=\(concurrency) req/s=\(Int((Double(requests) / seconds).rounded()))"
            + " cpu_us/req=\(String(format: "%.1f", cpuMicroseconds))"
    }
}
