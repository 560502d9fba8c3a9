import Gateway
import HTTP1Client
import HTTP1ClientTransport
import ReferenceScenario
import UpstreamKit

/// A typed upstream call end to end, as a combined endpoint makes it: `Upstream` (breaker,
/// retries, action chain) over the gateway's `PooledTransport` to our own server in this
/// process, decoding SWAPI's person 1. Compared with `client/…` it shows what the upstream layer
/// and the JSON decoding add to the bare exchange.
enum UpstreamBenchmarks {
    static func all(port: Int) throws -> [Benchmark] {
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: 64))
        let transport = PooledTransport(client: client)
        let swapi = Upstream(name: "swapi", baseURL: try BaseURL("http://127.0.0.1:\(port)/swapi/api"), transport: transport)
        let request = Request<SwapiPerson>(path: try Path("people", "1", trailingSlash: true))
        return [
            Benchmark("upstream/Upstream.send person 1 (decoded), 1 at a time") { iterations in
                for _ in 0..<iterations {
                    consume(try await swapi.send(request))
                }
            }
        ]
    }
}
