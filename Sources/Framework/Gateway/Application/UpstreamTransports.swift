import HTTP1Client
import HTTP1ClientTransport
import UpstreamKit

/// The transport each upstream gets: the pooled keep-alive client, in clear text for `http://`
/// upstreams and over TLS (the upstream's `TLSContext`) for `https://` ones.
struct UpstreamTransports {
    /// The server's event loops; the pooled client keeps a pool per loop.
    let eventLoopCount: Int
    let proxy: ProxySettings?

    init(for configuration: GatewayConfiguration) {
        self.init(eventLoopCount: configuration.eventLoopCount, proxy: configuration.proxy)
    }

    init(eventLoopCount: Int, proxy: ProxySettings? = nil) {
        self.eventLoopCount = eventLoopCount
        self.proxy = proxy
    }

    func make(for upstream: UpstreamConfiguration) -> any Transport {
        PooledTransport(client: HTTPClient(configuration: clientConfiguration(for: upstream)), tls: upstream.tls)
    }

    /// The pooled client's limits for `upstream`: its pool is the one queue an upstream's calls
    /// wait in (`Upstream` keeps none of its own). Each loop has a pool of its own, so the
    /// connections and the waiting calls are shared out among the loops; a call that finds its
    /// loop's connections busy and its queue full fails at once as `.overloaded`.
    func clientConfiguration(for upstream: UpstreamConfiguration) -> HTTPClient.Configuration {
        HTTPClient.Configuration(
            maximumConnectionsPerOrigin: share(of: upstream.maximumConnections),
            maximumWaitersPerOrigin: share(of: upstream.maximumWaitingCalls),
            proxy: proxy)
    }

    /// One loop's part of `total`, rounded up so that no loop gets none.
    private func share(of total: Int) -> Int {
        max(1, (total + eventLoopCount - 1) / eventLoopCount)
    }
}
