import ClientIdentity
import HTTPServerCore
import Upstream

/// A configured gateway: its upstreams, its route table, and the responder that serves it.
///
/// Building one does no I/O; `GatewayServer` puts it on a socket. `package` so that
/// `GatewayTesting` can hand our own tests the one a `GatewayUnderTest` serves.
package struct Gateway: Sendable {
    let configuration: GatewayConfiguration
    let upstreams: UpstreamRegistry
    /// Every exact route served, in table order: the catalog's endpoints, then the operation
    /// routes (the proxy routes are the router's prefixes).
    let routes: [GatewayRoute]
    let router: Router
    let responder: GatewayResponder
    let metrics: GatewayMetrics
    let status: ServerStatus
    /// Where the server reports requests it refused before routing.
    let rejectedRequests: RejectedRequestLog
    /// Log lines other than access lines: warnings, shutdown steps.
    let events: EventLog
    /// The Redis shared by the replicas, when `REDIS_URL` is set.
    let redis: RedisSharing?

    /// - Parameter transport: makes the transport for one upstream (loopback plain HTTP, TLS, a stub in tests).
    init(
        configuration: GatewayConfiguration,
        catalog: GatewayCatalog,
        logOutput: LogOutput? = nil,
        transport: (UpstreamConfiguration) -> any Transport
    ) throws(UpstreamError) {
        let events = EventLog(level: configuration.logLevel, output: logOutput)
        var attemptLog: (@Sendable (String) -> Void)?
        if events.isEnabled(.debug) {
            attemptLog = { @Sendable line in events.log(.debug, line) }
        }
        let cache = configuration.cacheMaximumBytes > 0
            ? ResponseCache(maximumBytes: configuration.cacheMaximumBytes, maximumEntryBytes: configuration.cacheMaximumEntryBytes) : nil
        let redis = configuration.redis.map { RedisSharing($0, events: events) }
        let sharedTier = redis.map { RedisResponseTier(sharing: $0, maximumEntryBytes: configuration.cacheMaximumEntryBytes) }
        var configured: [ConfiguredUpstream] = []
        for upstream in configuration.upstreams {
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
        let authenticator = configuration.authentication.map { Self.authenticator($0, transport: transport, events: events) }
        let status = ServerStatus()
        // With Redis, callers' limits are shared by the replicas; without, kept in this process.
        let sharedLimits = redis.map { RedisRateLimitStore(client: $0.client, maximumKeys: configuration.rateLimits.maximumClients) }
        var rateLimits = RateLimits(configuration: configuration.rateLimits, store: sharedLimits)
        let endpointLimiters = catalog.endpoints.map { rateLimits.limiter(for: $0.rateLimit, route: $0.path) }
        let proxyLimiters = catalog.proxies.map { rateLimits.limiter(for: $0.rateLimit, route: $0.metricsRoute) }
        let documentation = zip(catalog.endpoints, endpointLimiters).map { endpoint, limiter in
            RouteDocumentation(endpoint: endpoint, authenticates: authenticator != nil && endpoint.authentication.requiresToken, limited: limiter != nil)
        } + OperationRoutes.documentation
        let routeMetrics = documentation.map { RouteMetrics(route: $0.path) }
        let proxyMetrics = catalog.proxies.map { RouteMetrics(route: $0.metricsRoute) }
        let unmatched = RouteMetrics(route: "unmatched")
        let crossOrigin = configuration.crossOrigin.map { CrossOrigin(policy: $0, preflights: RouteMetrics(route: "preflight")) }
        let compression = configuration.compression.map { ($0, CompressionMetrics()) }
        let webSocketMetrics = catalog.proxies.isEmpty ? nil : WebSocketMetrics(maximumOpen: configuration.webSocketMaximumConnections)
        let accessLog = AccessLog(level: configuration.logLevel, output: logOutput)
        let metrics = GatewayMetrics(
            routes: routeMetrics + proxyMetrics + [unmatched] + (crossOrigin.map { [$0.preflights] } ?? []),
            upstreams: configured.map(\.metrics), cache: cache,
            missingFields: catalog.endpoints.compactMap(\.missingFields), authentication: authenticator?.metrics, redis: redis,
            rateLimits: rateLimits.limiters.isEmpty ? nil : rateLimits, compression: compression?.1, webSockets: webSocketMetrics,
            gauges: { (status.openConnections, status.inFlightRequests, status.rejectedRequests) })
        let routes = zip(catalog.endpoints, endpointLimiters).map { endpoint, limiter in
            GatewayRoute(
                endpoint: endpoint, upstreams: upstreams, answers: cache.map { CombinedAnswers(store: $0, endpoint: endpoint) }, events: events,
                admission: RouteAdmission(
                    authenticator: endpoint.authentication.requiresToken ? authenticator : nil, scopes: endpoint.authentication.scopes,
                    rateLimiter: limiter))
        }
            + OperationRoutes.routes(
                status: status, upstreams: upstreams, redis: redis, metrics: metrics, documenting: documentation, proxies: catalog.proxies)
        var router = Router()
        for (route, metrics) in zip(routes, routeMetrics) {
            let handler = route.handler
            router.add(route.documentation.method, route.documentation.path) { request, context in
                RequestScope.current?.route = metrics
                return try await handler(request, context)
            }
        }
        for ((proxy, metrics), limiter) in zip(zip(catalog.proxies, proxyMetrics), proxyLimiters) {
            let handler = ProxyHandler(
                route: proxy, upstream: upstreams[proxy.upstream], isSecure: configuration.tls != nil, speaksCORS: crossOrigin != nil,
                webSockets: webSocketMetrics.map { WebSocketProxy(for: proxy, configuration: configuration, metrics: $0, accessLog: accessLog) })
            let admission = RouteAdmission(
                authenticator: proxy.authentication.requiresToken ? authenticator : nil, scopes: proxy.authentication.scopes, rateLimiter: limiter)
            router.addPrefix(proxy.path) { request, match in
                RequestScope.current?.route = metrics
                if case .refused(let answer) = await admission.decide(request) { return answer }
                return await handler.respond(to: request, below: match)
            }
        }
        self.configuration = configuration
        self.upstreams = upstreams
        self.routes = routes
        self.router = router
        self.status = status
        self.metrics = metrics
        self.events = events
        self.redis = redis
        rejectedRequests = RejectedRequestLog(level: configuration.logLevel, output: logOutput)
        self.responder = GatewayResponder(
            router: router, crossOrigin: crossOrigin, unmatched: unmatched, requestDeadline: configuration.requestDeadline, status: status,
            accessLog: accessLog, compression: compression)
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

    private static func fetchKeySet(from url: BaseURL, through transport: any Transport) async throws(KeySetFetchError)
        -> (keys: JSONWebKeySet, maxAge: Int?)
    {
        let request = TransportRequest(
            method: .get, origin: url.origin, target: url.pathPrefix.isEmpty ? "/" : url.pathPrefix, headers: ["Accept": "application/json"],
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
