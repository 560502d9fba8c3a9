import HTTPClientCore
import SocketTransport
import Upstream

/// The transport each upstream gets: the pooled keep-alive client, in clear text for `http://`
/// upstreams and over TLS (the upstream's `TLSContext`) for `https://` ones.
struct UpstreamTransports {
    /// The server's event loops; the pooled client keeps a pool per loop.
    let eventLoopCount: Int
    let proxy: ProxySettings?

    init(for configuration: GatewayConfiguration) {
        eventLoopCount = configuration.eventLoopCount
        proxy = configuration.proxy
    }

    func make(for upstream: UpstreamConfiguration) -> any Transport {
        // Each loop has a pool of its own, so the configured total is shared out.
        let perLoop = max(1, (upstream.maximumConnections + eventLoopCount - 1) / eventLoopCount)
        let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: perLoop, proxy: proxy))
        return PooledTransport(client: client, tls: upstream.tls)
    }
}
