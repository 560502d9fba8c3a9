/// Which pages may open a WebSocket through the gateway: the defence against cross-site
/// WebSocket hijacking. A browser lets any page open a WebSocket to any site, with that site's
/// cookies, and no CORS protects the answer; only the `Origin` the browser sends tells a page of
/// another site apart. Pure: a function of the request's `Origin` and `Host` and the CORS policy.
///
/// - No `Origin`: not a browser (browsers always send one on a WebSocket handshake), allowed.
/// - An `Origin` naming the gateway's own host (the `Host` of the request, ignoring the scheme,
///   so that a TLS-terminating balancer in front changes nothing): allowed.
/// - Any other: allowed only when `CORS_ALLOWED_ORIGINS` allows it (`*` allows every origin).
///   Without CORS configured, cross-origin pages are refused: a gateway that says nothing about
///   origins does not let other sites' pages in.
enum WebSocketOrigins {
    static func allows(origin: String?, host: String?, policy: CrossOriginPolicy?) -> Bool {
        guard let origin else { return true }
        if let host, isSameHost(origin: origin, host: host) { return true }
        return policy?.allowedOrigin(for: origin) != nil
    }

    /// Whether `origin` (`scheme://host[:port]`) names the authority `host`, where a port that is
    /// the scheme's default may be written or left out on either side.
    private static func isSameHost(origin: String, host: String) -> Bool {
        guard let parsed = try? WebOrigin(origin), let separator = parsed.serialized.firstRange(of: "://") else { return false }
        let scheme = parsed.serialized[..<separator.lowerBound]
        let authority = parsed.serialized[separator.upperBound...]
        let requested = host.lowercased()
        if authority == requested { return true }
        let defaultPort = scheme == "https" || scheme == "wss" ? ":443" : ":80"
        return authority + defaultPort == requested
    }
}
