import BrowserSession
import CallerIdentity
import HTTP1Server
import UpstreamKit

/// A configured gateway: its upstreams, its route table, and the responder that serves it.
///
/// Building one does no I/O; `GatewayServer` puts it on a socket. `package` so that
/// `GatewayTesting` can hand our own tests the one a `GatewayUnderTest` serves.
///
/// A reload builds a new one from the one serving (`reloading`), which hands on what must outlive
/// it: the cache, Redis, the key set, the rate limit store and the limiters of unchanged routes,
/// the upstreams defined alike, the counters and the server's status.
package struct Gateway: Sendable {
    let configuration: GatewayConfiguration
    /// The catalog served, to which a reload compares the next.
    let catalog: GatewayCatalog
    let upstreams: UpstreamRegistry
    /// Every exact route served, in table order: the catalog's endpoints, then the operation
    /// routes (the proxy routes are the router's prefixes).
    let routes: [GatewayRoute]
    let router: Router<RequestScope>
    let responder: GatewayResponder
    let metrics: GatewayMetrics
    let status: ServerStatus
    /// Where the server reports requests it refused before routing.
    let rejectedRequests: RejectedRequestLog
    /// Log lines other than access lines: warnings, shutdown steps.
    let events: EventLog
    /// The Redis shared by the replicas, when `REDIS_URL` is set.
    let redis: RedisSharing?
    /// The upstream answers kept, when `CACHE_MAX_BYTES` is not 0.
    let cache: ResponseCache?
    /// Checks client tokens, when a key set is configured.
    let authenticator: Authenticator?
    /// Signs browsers in and keeps their sessions, when `OIDC_ISSUER` is set.
    let signIn: BrowserSignIn?
    let rateLimits: RateLimits
    /// Reloads so far, for `/metrics`.
    let reloads: ReloadMetrics
    /// Where the requests' spans go, when tracing is on; set at start-up, kept by reloads.
    var spanExporter: SpanExporter? { responder.spans?.exporter }

    /// - Parameters:
    ///   - transport: makes the transport for one upstream (loopback plain HTTP, TLS, a stub in tests).
    ///   - previous: the gateway serving, when this one replaces it on a reload; its upstreams
    ///     defined alike in `catalog` serve on, not set up anew (see `CatalogChange`).
    init(
        configuration: GatewayConfiguration,
        catalog: GatewayCatalog,
        logOutput: LogOutput? = nil,
        transport: (UpstreamConfiguration) -> any Transport,
        reloading previous: Gateway? = nil
    ) throws(UpstreamError) {
        let events = previous?.events ?? EventLog(level: configuration.logLevel, output: logOutput)
        var attemptLog: (@Sendable (String) -> Void)?
        if events.isEnabled(.debug) {
            attemptLog = { @Sendable line in events.log(.debug, line) }
        }
        let cache = previous.map(\.cache) ?? (configuration.cacheMaximumBytes > 0
            ? ResponseCache(maximumBytes: configuration.cacheMaximumBytes, maximumEntryBytes: configuration.cacheMaximumEntryBytes) : nil)
        let redis = previous.map(\.redis) ?? configuration.redis.map { RedisSharing($0, events: events) }
        let sharedTier = redis.map { RedisResponseTier(sharing: $0, maximumEntryBytes: configuration.cacheMaximumEntryBytes) }
        let kept = previous.map { Set(CatalogChange(from: $0.catalog, to: catalog).keptUpstreams) } ?? []
        var configured: [ConfiguredUpstream] = []
        for upstream in configuration.upstreams {
            if kept.contains(upstream.name), let running = previous?.upstreams[upstream.name] {
                configured.append(running)
                continue
            }
            let actions = catalog.upstreams.first { $0.name == upstream.name }?.makeActions() ?? []
            // Token requests get a transport of their own, chosen for the token endpoint's scheme.
            let tokenTransport = upstream.oauth2.map { oauth2 in
                var tokenEndpoint = upstream
                tokenEndpoint.baseURL = oauth2.tokenURL
                tokenEndpoint.tls = upstream.tokenTLS
                return TimeoutTransport(wrapping: transport(tokenEndpoint))
            }
            configured.append(try ConfiguredUpstream(
                configuration: upstream, transport: transport(upstream), tokenTransport: tokenTransport, actions: actions, cache: cache,
                sharedTier: sharedTier, log: attemptLog, warn: { events.log(.warning, $0) }))
        }
        let upstreams = UpstreamRegistry(configured)
        let authenticator = previous.map(\.authenticator)
            ?? configuration.authentication.map { Self.authenticator($0, transport: transport, events: events) }
        // Sessions outlive a reload, like the key set.
        let signIn = previous.map(\.signIn) ?? configuration.browserSignIn.map {
            Self.makeSignIn($0, transport: transport, redis: redis, events: events)
        }
        let status = previous?.status ?? ServerStatus()
        var rateLimits: RateLimits
        if let previous {
            rateLimits = RateLimits(reloading: previous.rateLimits)
        } else {
            // With Redis, callers' limits are shared by the replicas; without, kept in this process.
            let sharedLimits = redis.map { RedisRateLimitStore(client: $0.client, maximumKeys: configuration.rateLimits.maximumClients) }
            rateLimits = RateLimits(configuration: configuration.rateLimits, store: sharedLimits)
        }
        let endpointLimiters = catalog.endpoints.map { rateLimits.limiter(for: $0.rateLimit, route: $0.path) }
        let proxyLimiters = catalog.proxies.map { rateLimits.limiter(for: $0.rateLimit, route: $0.metricsRoute) }
        rateLimits.dropPrevious()
        let userTokenUpstreams = Set(configuration.upstreams.filter(\.takesUserToken).map(\.name))
        let admissions = zip(catalog.endpoints, endpointLimiters).map { endpoint, limiter in
            let needsUserToken = signIn != nil && endpoint.upstreams.contains(where: userTokenUpstreams.contains)
            return RouteAdmission(
                authenticator: endpoint.authentication.requiresToken ? authenticator : nil, scopes: endpoint.authentication.scopes,
                rateLimiter: limiter, signIn: endpoint.authentication.requiresToken || needsUserToken ? signIn : nil, needsUserToken: needsUserToken)
        }
        let signInRoutes = signIn?.routes ?? []
        let endpointDocumentation: [RouteDocumentation] = zip(catalog.endpoints, admissions).map { endpoint, admission in
            RouteDocumentation(
                endpoint: endpoint, authenticates: admission.authenticator != nil || admission.signIn != nil, limited: admission.rateLimiter != nil)
        }
        let documentation = endpointDocumentation + signInRoutes.map(\.documentation) + OperationRoutes.documentation
        // A route served before a reload counts on where it was.
        let previousRoutes = previous?.metrics.routes ?? []
        let routeMetrics = documentation.map { Self.metrics(of: $0.path, among: previousRoutes) }
        let proxyMetrics = catalog.proxies.map { Self.metrics(of: $0.metricsRoute, among: previousRoutes) }
        let unmatched = previous?.responder.unmatched ?? RouteMetrics(route: "unmatched")
        let crossOrigin = previous.map(\.responder.crossOrigin)
            ?? configuration.crossOrigin.map { CrossOrigin(policy: $0, preflights: RouteMetrics(route: "preflight")) }
        let compression = previous.map(\.responder.compression) ?? configuration.compression.map { ($0, CompressionMetrics()) }
        let reloads = previous?.reloads ?? ReloadMetrics()
        let spans = previous.map(\.responder.spans) ?? configuration.tracing.map {
            RequestTracing(exporter: SpanExporter(configuration: $0), scheme: configuration.tls == nil ? "http" : "https")
        }
        // Open WebSockets outlive a reload: their count and limit carry over.
        let webSocketMetrics = catalog.proxies.isEmpty
            ? nil : previous?.metrics.webSockets ?? WebSocketMetrics(maximumOpen: configuration.webSocketMaximumConnections)
        let accessLog = previous?.responder.accessLog ?? AccessLog(level: configuration.logLevel, output: logOutput)
        let metrics = GatewayMetrics(
            routes: routeMetrics + proxyMetrics + [unmatched] + (crossOrigin.map { [$0.preflights] } ?? []),
            upstreams: configured.map(\.metrics), cache: cache,
            missingFields: catalog.endpoints.compactMap(\.missingFields), authentication: authenticator?.metrics, sessions: signIn?.metrics, redis: redis,
            rateLimits: rateLimits.limiters.isEmpty ? nil : rateLimits, compression: compression?.1, reloads: reloads, webSockets: webSocketMetrics,
            spanExporter: spans?.exporter,
            gauges: {
                (status.openConnections, status.inFlightRequests, status.rejectedRequests, status.refusedConnections, status.reclaimedConnections)
            })
        let routes = zip(catalog.endpoints, admissions).map { endpoint, admission in
            GatewayRoute(
                endpoint: endpoint, upstreams: upstreams, answers: cache.map { CombinedAnswers(store: $0, endpoint: endpoint) }, events: events,
                admission: admission)
        }
            + signInRoutes
            + OperationRoutes.routes(
                status: status, upstreams: upstreams, redis: redis, metrics: metrics, documenting: documentation, proxies: catalog.proxies)
        var router = Router<RequestScope>()
        for (route, metrics) in zip(routes, routeMetrics) {
            let handler = route.handler
            router.add(route.documentation.method, route.documentation.path) { request, match, scope in
                scope.route = metrics
                return try await handler(request, match, scope)
            }
        }
        for ((proxy, metrics), limiter) in zip(zip(catalog.proxies, proxyMetrics), proxyLimiters) {
            var handler = ProxyHandler(
                route: proxy, upstream: upstreams[proxy.upstream], isSecure: configuration.tls != nil,
                trustedProxies: configuration.rateLimits.trustedProxies, speaksCORS: crossOrigin != nil,
                webSockets: webSocketMetrics.map { WebSocketProxy(for: proxy, configuration: configuration, metrics: $0, accessLog: accessLog) })
            if let signIn { handler.ownCookies = [signIn.configuration.cookie.name, BrowserSignIn.signInCookieName] }
            let proxyHandler = handler
            let needsUserToken = signIn != nil && userTokenUpstreams.contains(proxy.upstream)
            let admission = RouteAdmission(
                authenticator: proxy.authentication.requiresToken ? authenticator : nil, scopes: proxy.authentication.scopes, rateLimiter: limiter,
                signIn: proxy.authentication.requiresToken || needsUserToken ? signIn : nil, needsUserToken: needsUserToken)
            router.addPrefix(proxy.path, streamsBodies: true) { request, match, scope in
                scope.route = metrics
                switch await admission.decide(request, scope: scope) {
                case .refused(let answer): return answer
                case .admitted(let identity): return await proxyHandler.respond(to: request, below: match, scope: scope, personal: identity != nil)
                case .signedIn(_, let token):
                    return await proxyHandler.respond(to: request, below: match, scope: scope, personal: true, userAccessToken: token)
                }
            }
        }
        self.configuration = configuration
        self.catalog = catalog
        self.upstreams = upstreams
        self.routes = routes
        self.router = router
        self.status = status
        self.metrics = metrics
        self.events = events
        self.redis = redis
        self.cache = cache
        self.authenticator = authenticator
        self.signIn = signIn
        self.rateLimits = rateLimits
        self.reloads = reloads
        rejectedRequests = previous?.rejectedRequests ?? RejectedRequestLog(level: configuration.logLevel, output: logOutput)
        self.responder = GatewayResponder(
            router: router, crossOrigin: crossOrigin, unmatched: unmatched, requestDeadline: configuration.requestDeadline, status: status,
            accessLog: accessLog, compression: compression, spans: spans)
    }

    /// The metrics of `route` among those of the configuration replaced, else new ones.
    private static func metrics(of route: String, among previous: [RouteMetrics]) -> RouteMetrics {
        previous.first { $0.route == route } ?? RouteMetrics(route: route)
    }

    /// The authenticator of `configuration`: its key set read, or fetched (through the gateway's
    /// pooled client, from `transport`) now and refreshed as `KeySetRefresh` says.
    private static func authenticator(
        _ configuration: AuthenticationConfiguration, transport: (UpstreamConfiguration) -> any Transport, events: EventLog
    ) -> Authenticator {
        let verified = VerifiedTokens(capacity: 4096)
        let keys: KeySetStore
        switch configuration.keySource {
        case .file(let set):
            keys = KeySetStore(keys: set)
        case .url(let url, let tls):
            var endpoint = UpstreamConfiguration(name: "jwks", baseURL: url, maximumConnections: 2)
            endpoint.tls = tls
            let fetcher = TimeoutTransport(wrapping: transport(endpoint))
            keys = KeySetStore(
                fetch: { () async throws(KeySetFetchError) in try await fetchKeySet(from: url, through: fetcher) },
                refresh: KeySetRefresh(defaultLifetime: configuration.refreshInterval, minimumInterval: configuration.minimumRefreshInterval),
                warn: { events.log(.warning, $0) }, replaced: { verified.removeAll() })
        }
        return Authenticator(verifier: configuration.verifier, keys: keys, verified: verified, metrics: AuthenticationMetrics())
    }

    /// The sign-in of `configuration`: its provider reached through the pooled client (from
    /// `transport`, with the provider's TLS settings), its sessions sealed in `redis` when the
    /// replicas share one, else in this replica's memory.
    private static func makeSignIn(
        _ configuration: BrowserSignInConfiguration, transport: (UpstreamConfiguration) -> any Transport, redis: RedisSharing?, events: EventLog
    ) -> BrowserSignIn {
        var endpoint = UpstreamConfiguration(name: "oidc", baseURL: configuration.issuerURL, maximumConnections: 8)
        endpoint.tls = configuration.tls
        let provider = OpenIDProvider(
            configuration: configuration, transport: TimeoutTransport(wrapping: transport(endpoint)), warn: { events.log(.warning, $0) })
        if let redis, let sealer = configuration.sealer {
            let store = RedisSessionStore(client: redis.client, sealer: sealer, lifetimes: configuration.lifetimes)
            return BrowserSignIn(
                configuration: configuration, provider: provider, store: store, metrics: BrowserSessionMetrics(activeSessions: { nil }), events: events)
        }
        let store = MemorySessionStore(lifetimes: configuration.lifetimes, capacity: configuration.maximumSessions)
        return BrowserSignIn(
            configuration: configuration, provider: provider, store: store, metrics: BrowserSessionMetrics(activeSessions: { store.count }),
            events: events)
    }

    static func fetchKeySet(from url: BaseURL, through transport: any Transport) async throws(KeySetFetchError)
        -> (keys: JSONWebKeySet, maxAge: Int?)
    {
        let request = TransportRequest(
            method: .get, origin: url.origin, target: url.target, headers: ["Accept": "application/json"],
            timeout: .seconds(5), maximumResponseBytes: JSONWebKeySet.maximumBytes)
        let response: Response
        do {
            response = try await transport.send(request)
        } catch {
            throw KeySetFetchError(description: "\(url): \(error)")
        }
        guard response.status.isSuccess else { throw KeySetFetchError(description: "\(url) answered \(response.status.code)") }
        do {
            let keys = try JSONWebKeySet(parsing: response.body)
            let control = CacheControl(response.headers)
            return (keys, control.noStore || control.noCache ? 0 : control.maxAge)
        } catch {
            throw KeySetFetchError(description: "\(url): \(error)")
        }
    }
}
