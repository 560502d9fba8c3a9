import HTTPServerCore
import SocketTransport
import Upstream

/// The transport each upstream gets: the pooled keep-alive client for `http://` upstreams
/// (loopback, sidecars, the benchmark) and URLSession for `https://`, which needs TLS.
struct UpstreamTransports {
    /// The server's event loops; the pooled client keeps a pool per loop.
    let eventLoopCount: Int
    let proxy: ProxySettings?

    init(for configuration: GatewayConfiguration) {
        eventLoopCount = configuration.eventLoopCount
        proxy = configuration.proxy
    }

    func make(for upstream: UpstreamConfiguration) -> any Transport {
        if upstream.baseURL.origin.scheme == "http" {
            // Each loop has a pool of its own, so the configured total is shared out.
            let perLoop = max(1, (upstream.maximumConnections + eventLoopCount - 1) / eventLoopCount)
            let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: perLoop, proxy: proxy))
            return PooledTransport(client: client)
        }
        return URLSessionTransport(maximumConnectionsPerHost: upstream.maximumConnections)
    }
}
