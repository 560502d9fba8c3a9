/// Which proxy `HTTPClient` sends each request through, as `HTTP_PROXY`, `HTTPS_PROXY` and
/// `NO_PROXY` say for curl and Go.
///
/// Requests to `http://` origins go to `httpProxy` in absolute form (`GET http://host/path`);
/// connections to `https://` origins go through a `CONNECT` tunnel of `httpsProxy`. Hosts in
/// `bypass`, and origins whose scheme has no proxy, are reached directly. `description` shows
/// no credentials.
public struct ProxySettings: Sendable, Equatable, CustomStringConvertible {
    /// The proxy for `http://` origins, or nil to reach them directly.
    public var httpProxy: ProxyServer?
    /// The proxy tunnelling to `https://` origins, or nil to reach them directly.
    public var httpsProxy: ProxyServer?
    /// The hosts reached directly whatever the proxies.
    public var bypass: ProxyBypassList

    /// Settings that send `http://` origins to `httpProxy` and tunnel to `https://` ones through
    /// `httpsProxy`, except for the hosts in `bypass`.
    public init(httpProxy: ProxyServer? = nil, httpsProxy: ProxyServer? = nil, bypass: ProxyBypassList = ProxyBypassList("")) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.bypass = bypass
    }

    /// Both proxies, without credentials.
    public var description: String {
        "http: \(httpProxy?.description ?? "direct"), https: \(httpsProxy?.description ?? "direct")"
    }

    /// How to reach `host` and `port`; `isSecure` for an `https://` origin.
    func route(toHost host: String, port: Int, isSecure: Bool) -> EgressPath {
        guard let proxy = isSecure ? httpsProxy : httpProxy, !bypass.includes(host: host, port: port) else { return .direct }
        return isSecure ? .tunnel(through: proxy) : .forward(to: proxy)
    }
}

/// How `HTTPClient` reaches one origin.
enum EgressPath: Equatable {
    /// A connection to the origin itself.
    case direct
    /// A connection to the proxy, which receives each request in absolute form and forwards it.
    case forward(to: ProxyServer)
    /// A connection to the proxy turned into a tunnel to the origin by `CONNECT`.
    case tunnel(through: ProxyServer)
}
