import HTTPServerCore
import SocketTransport
import Upstream

/// The transport each upstream gets: the pooled keep-alive client for `http://` upstreams
/// (loopback, sidecars, the benchmark) and URLSession for `https://`, which needs TLS.
enum UpstreamTransports {
    static func make(for upstream: UpstreamConfiguration) -> any Transport {
        if upstream.baseURL.origin.scheme == "http" {
            // The client keeps a pool per event loop, so the configured total is shared out.
            let loops = GatewayServer.eventLoopCount
            let perLoop = max(1, (upstream.maximumConnections + loops - 1) / loops)
            let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: perLoop))
            return PooledTransport(client: client)
        }
        return URLSessionTransport(maximumConnectionsPerHost: upstream.maximumConnections)
    }
}
