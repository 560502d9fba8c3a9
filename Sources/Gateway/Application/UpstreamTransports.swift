import HTTPServerCore
import SocketTransport
import Upstream

/// The transport each upstream gets: the pooled keep-alive client for `http://` upstreams
/// (loopback, sidecars, the benchmark) and URLSession for `https://`, which needs TLS.
enum UpstreamTransports {
    static func make(for upstream: UpstreamConfiguration) -> any Transport {
        if upstream.baseURL.origin.scheme == "http" {
            let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConnectionsPerOrigin: upstream.maximumConnections))
            return PooledTransport(client: client)
        }
        return URLSessionTransport(maximumConnectionsPerHost: upstream.maximumConnections)
    }
}
