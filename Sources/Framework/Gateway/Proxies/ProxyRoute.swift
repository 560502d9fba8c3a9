/// A pass-through route: every request whose path is a prefix or lies below it, whatever its
/// method, goes to one upstream with the prefix replaced by the upstream's base path, and the
/// upstream's answer comes back as it was given (KrakenD's `no-op` endpoints, nginx's `proxy_pass`).
///
/// ```swift
/// extension ProxyRoute {
///     static let contacts = ProxyRoute("/ct", upstream: .contacts, summary: "The contacts API as it is")
/// }
/// let catalog = GatewayCatalog(upstreams: [.contacts], endpoints: [], proxies: [.contacts])
/// // PUT /ct/people/1?notify=no → PUT {UPSTREAM_CONTACTS_URL}/people/1?notify=no
/// ```
///
/// Bodies stream both ways: an upload goes on to the upstream as it arrives, up to
/// `maximumRequestBytes`, each write of it waiting at most the upstream's timeout, and an answer longer than 64 KiB or of unknown length (a download, an
/// event stream) goes back to the client piece by piece at the client's pace, with no size limit,
/// each read of it waiting at most the upstream's timeout. Header fields pass both ways but for hop-by-hop fields (`Connection` and the fields
/// it names, `Keep-Alive`, `TE`, `Upgrade`, …); the upstream gets its own `Host`, the gateway's
/// `Via`, and who the client is (`Forwarded`, `X-Forwarded-For`, `-Host`, `-Proto`). Every status
/// the upstream answers is passed on; when it cannot be reached, times out or its circuit is open
/// the client gets the gateway's problem+json (502, 503, 504). The upstream's timeouts, retries,
/// circuit breaker, limits, metrics and access log entry apply as for combined endpoints, but its
/// cookie jar keeps no cookie of a proxied answer (each belongs to one client), and its
/// credentials go only where the route says so (`upstreamCredentials`). A path with a `.` or `..`
/// segment (encoded or not, and whatever `;` parameters follow it: `DotSegmentScan`), a control
/// character or an invalid escape is refused with 400, and TRACE with 405, since an upstream's
/// echo would show the client what the gateway adds. Exact routes win over prefixes, and a
/// longer prefix over a shorter one. A request with `Upgrade: websocket` opens a WebSocket to the upstream: its
/// handshake and `Origin` are checked, then bytes are relayed both ways (docs/WEBSOCKETS.md).
public struct ProxyRoute: Sendable {
    /// The prefix: `/ct` serves `/ct`, `/ct/` and every path below, not `/ctx`.
    public let path: String
    /// The name of the upstream requests go to; it must be in the catalog.
    public let upstream: String
    /// One line for `GET /` and OpenAPI.
    public let summary: String
    /// Whether callers need a bearer token when the gateway has a key set.
    public let authentication: Authentication
    /// How many requests each caller may make through it.
    public let rateLimit: RateLimit
    /// Whether the gateway's own credentials for the upstream go with the requests it relays.
    public let upstreamCredentials: UpstreamCredentials

    /// Whether a proxy route lends the gateway's credentials for its upstream (its bearer or
    /// OAuth2 token, `UPSTREAM_{NAME}_HEADERS`, the cookies its jar keeps from the gateway's own
    /// calls, and what the upstream definition's own actions add on requests that require
    /// authentication) to the requests of its clients.
    public enum UpstreamCredentials: Sendable, Equatable {
        /// Not sent: the default. A route relays any method and path below its prefix, so with the
        /// gateway's credentials every client would act as the gateway on the whole upstream, and
        /// an upstream that echoes request fields (a debug endpoint, a reflected error) would show
        /// them the credentials themselves. A client's own `Authorization` passes as it does to an
        /// upstream that has no credentials configured.
        case withheld
        /// Sent, replacing the client's fields of the same names, as on the calls of combined
        /// endpoints: for an upstream that needs them and that its operator trusts not to
        /// reflect request fields.
        case sent
    }
    /// The largest request body passed on, in bytes, or nil for no limit: a larger one is
    /// answered 413, at once when its `Content-Length` says so, else as soon as that many bytes
    /// have arrived (nginx's `client_max_body_size`).
    public let maximumRequestBytes: Int?

    /// The default of `maximumRequestBytes`: 1 MiB, as nginx's `client_max_body_size`.
    public static let defaultMaximumRequestBytes = 1 << 20

    /// Declares a route that relays every request below `path` to `upstream`.
    ///
    /// - Parameters:
    ///   - path: the prefix, starting with `/` and not ending with one, without parameters.
    ///   - upstream: where requests go; its base path replaces the prefix.
    ///   - summary: one line for `GET /` and OpenAPI; by default it names the upstream.
    ///   - authentication: `.none` lets anyone through when the gateway checks tokens (`AUTH_JWKS_*`);
    ///     by default a valid bearer token is required then, as for endpoints, and `.required(scopes:)`
    ///     requires one that grants those scopes.
    ///   - rateLimit: a limit of its own per caller, or `.off`; by default the gateway's `RATE_LIMIT`.
    ///   - upstreamCredentials: `.sent` lends the gateway's credentials for the upstream to the
    ///     relayed requests; by default they are withheld (`UpstreamCredentials.withheld` says why).
    ///   - maximumRequestBytes: the largest upload passed on, nil for none; 1 MiB by default.
    public init(
        _ path: String, upstream: UpstreamDefinition, summary: String? = nil, authentication: Authentication = .required, rateLimit: RateLimit = .default,
        upstreamCredentials: UpstreamCredentials = .withheld, maximumRequestBytes: Int? = ProxyRoute.defaultMaximumRequestBytes
    ) {
        self.path = path
        self.maximumRequestBytes = maximumRequestBytes.map { max($0, 0) }
        self.authentication = authentication
        self.rateLimit = rateLimit
        self.upstreamCredentials = upstreamCredentials
        self.upstream = upstream.name
        self.summary = summary ?? "Requests below \(path), passed to upstream \(upstream.name)"
    }

    /// The route's label in metrics and access logs: `/ct/*`.
    var metricsRoute: String { path + "/*" }

    /// The route in OpenAPI form: `/ct/{path}`.
    var openAPIPath: String { path + "/{path}" }
}
