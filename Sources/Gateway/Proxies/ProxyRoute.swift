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
/// Header fields and bodies pass both ways but for hop-by-hop fields (`Connection` and the fields
/// it names, `Keep-Alive`, `TE`, `Upgrade`, …); the upstream gets its own `Host`, the gateway's
/// `Via`, and who the client is (`Forwarded`, `X-Forwarded-For`, `-Host`, `-Proto`). Every status
/// the upstream answers is passed on; when it cannot be reached, times out or its circuit is open
/// the client gets the gateway's problem+json (502, 503, 504). The upstream's credentials,
/// timeouts, retries, circuit breaker, limits, metrics and access log entry apply as for combined
/// endpoints, but its cookie jar keeps no cookie of a proxied answer (each belongs to one
/// client). A path with a `.` or `..` segment (encoded or not), a control character or an invalid
/// escape is refused with 400, and TRACE with 405, since an upstream's echo would show the
/// client the gateway's credentials. Exact routes win over prefixes, and a longer prefix over a
/// shorter one. A request with `Upgrade: websocket` opens a WebSocket to the upstream: its
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

    /// - Parameters:
    ///   - path: the prefix, starting with `/` and not ending with one, without parameters.
    ///   - upstream: where requests go; its base path replaces the prefix.
    ///   - summary: one line for `GET /` and OpenAPI; by default it names the upstream.
    ///   - authentication: `.none` lets anyone through when the gateway checks tokens (`AUTH_JWKS_*`);
    ///     by default a valid bearer token is required then, as for endpoints, and `.required(scopes:)`
    ///     requires one that grants those scopes.
    ///   - rateLimit: a limit of its own per caller, or `.off`; by default the gateway's `RATE_LIMIT`.
    public init(
        _ path: String, upstream: UpstreamDefinition, summary: String? = nil, authentication: Authentication = .required, rateLimit: RateLimit = .default
    ) {
        self.path = path
        self.authentication = authentication
        self.rateLimit = rateLimit
        self.upstream = upstream.name
        self.summary = summary ?? "Requests below \(path), passed to upstream \(upstream.name)"
    }

    /// The route's label in metrics and access logs: `/ct/*`.
    var metricsRoute: String { path + "/*" }

    /// The route in OpenAPI form: `/ct/{path}`.
    var openAPIPath: String { path + "/{path}" }
}
