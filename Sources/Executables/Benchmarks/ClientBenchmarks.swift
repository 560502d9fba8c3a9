import HTTP1Client
import HTTPBasics

/// The pooled `HTTPClient` against our own server in this process, both on one event loop as
/// in the gateway (a connection's task and its upstream sockets share the loop). Time and CPU
/// per request therefore include the server's side of each exchange.
enum ClientBenchmarks {
    static func all(port: Int) -> [Benchmark] {
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: 64))
        let request = HTTPClientRequest(host: "127.0.0.1", port: port, target: "/swapi/api/people/1/")
        return [
            Benchmark("client/GET 577 B, keep-alive, 1 at a time") { iterations in
                for _ in 0..<iterations {
                    try await send(request, with: client)
                }
            },
            .concurrent("client/GET 577 B, keep-alive, 16 concurrent", concurrency: 16) {
                try await send(request, with: client)
            },
        ]
    }

    private static func send(_ request: HTTPClientRequest, with client: HTTPClient) async throws {
        let response = try await client.send(request, timeout: .seconds(5), maximumResponseBytes: 1 << 20)
        guard response.status == .ok else { throw BenchmarkFailure("unexpected status \(response.status.code)") }
    }
}
