import HTTP1Client
import HTTPBasics

/// Whole combined requests in one process, as a client sees them: our pooled `HTTPClient` sends
/// them over loopback, `concurrency` at a time, to the demo gateway (server, router, handler,
/// upstream calls through the pooled client, JSON, access log), whose upstreams are the demo
/// fixtures served by our own server. Time and CPU per request cover all three sides, so they
/// are not the gateway's alone; with `--requests N` the request count is fixed, for
/// scripts/instructions-per-request.
enum GatewayBenchmarks {
    static let concurrency = 16

    /// The three combined endpoints, with the deal that `shared/bench/run` asks for.
    static let endpoints = [
        (name: "menu", target: "/v1/menu"),
        (name: "people/1", target: "/v1/people/1"),
        (name: "deal", target: "/v1/deal?players=2&cards=5"),
    ]

    static func all(port: Int) -> [Benchmark] {
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: concurrency))
        return endpoints.map { endpoint in
            let request = HTTPClientRequest(host: "127.0.0.1", port: port, target: endpoint.target)
            return .concurrent("gateway/\(endpoint.name), \(concurrency) concurrent", concurrency: concurrency) {
                let response = try await client.send(request, timeout: .seconds(30), maximumResponseBytes: 1 << 20)
                // A degraded answer skipped part of the work, so it would flatter the figures.
                guard response.status == .ok, response.headers["X-Gateway-Completed"] == "true" else {
                    throw BenchmarkFailure("\(endpoint.target): status \(response.status.code), incomplete or failed")
                }
            }
        }
    }
}
