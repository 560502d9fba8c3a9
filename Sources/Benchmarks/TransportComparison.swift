import Foundation
import HTTPBasics
import HTTPServerCore
import Upstream

/// N GETs at concurrency C against one URL, through the pooled `HTTPClient` and through
/// `URLSessionTransport`, printed in the format of `shared/bench/node-client.mjs` so the
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
        let loop = EventLoop.shared
        let pooled = try await Task(executorPreference: loop) {
            try await measure(label: "pooled-http-client") { try await sendPooled() }
        }.value
        print(pooled)
        print(try await measure(label: "urlsession-transport") { try await sendThroughURLSession() })
    }

    private func sendPooled() async throws -> @Sendable () async throws -> Void {
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: concurrency))
        let request = HTTPClientRequest(host: host, port: port, target: target)
        return {
            let response = try await client.send(request, timeout: .seconds(10), maximumResponseBytes: 64 << 20)
            guard response.status.code < 400 else { throw BenchmarkFailure("status \(response.status.code)") }
        }
    }

    private func sendThroughURLSession() async throws -> @Sendable () async throws -> Void {
        let transport = URLSessionTransport(maximumConnectionsPerHost: concurrency)
        let request = TransportRequest(
            method: .get, origin: Origin(scheme: "http", host: host, port: port), target: target,
            maximumResponseBytes: 64 << 20)
        return {
            let response = try await transport.send(request)
            guard response.status.code < 400 else { throw BenchmarkFailure("status \(response.status.code)") }
        }
    }

    /// Warms one connection per worker, then times `requests` sends by `concurrency` workers.
    private func measure(label: String, _ makeSend: () async throws -> @Sendable () async throws -> Void) async throws -> String {
        let send = try await makeSend()
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
