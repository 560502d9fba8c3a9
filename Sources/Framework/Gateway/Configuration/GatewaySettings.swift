/// A gateway's settings chosen in code, for a team's own `main` or test: each property is the
/// environment variable of the same meaning (`port` is `PORT`, `requestDeadline` is
/// `REQUEST_DEADLINE_MS`), checked by the same rules with the same errors. A property left nil
/// takes that variable's default, the one `gateway --help` shows, so every setting has one
/// default. The environment the gateway is started with overrides what is set here, as it
/// overrides the defaults: an operator can still change any setting without a rebuild.
///
/// ```swift
/// var settings = GatewaySettings()
/// settings.port = 9090
/// settings.requestDeadline = .seconds(3)
/// settings.upstreams["weather"] = .init(url: "https://weather.internal/api", timeout: .seconds(1))
/// let gateway = try GatewayService(catalog: catalog, settings: settings)
/// ```
public struct GatewaySettings: Sendable {
    /// `HOST`: the address to listen on.
    public var host: String?
    /// `PORT`: the TCP port to listen on; 0 picks a free one (`GatewayService.port` tells which).
    public var port: Int?
    /// `LOG_LEVEL`: how much the gateway logs.
    public var logLevel: LogLevel?
    /// `REQUEST_DEADLINE_MS`: the overall deadline of one request, its upstream calls included.
    public var requestDeadline: Duration?
    /// `SHUTDOWN_DELAY_MS`: how long readiness fails before the gateway stops accepting, on SIGTERM.
    public var shutdownDelay: Duration?
    /// `DRAIN_TIMEOUT_MS`: how long requests in flight may finish once accepting stopped.
    public var drainTimeout: Duration?
    /// `MAX_CONNECTIONS`: client connections open at once.
    public var maximumConnections: Int?
    /// `MAX_CONNECTIONS_PER_CLIENT`: client connections one address may hold; 0 for no cap.
    public var maximumConnectionsPerClient: Int?
    /// `EVENT_LOOPS`: threads serving connections and upstream calls.
    public var eventLoops: Int?
    /// `GATEWAY_ENDPOINTS_FILE`: the path of an endpoints file whose routes join the catalog's.
    public var endpointsFile: String?
    /// `CACHE_MAX_BYTES`: memory for stored upstream answers; 0 turns the cache off.
    public var cacheMaximumBytes: Int?
    /// `REDIS_URL`: the Redis that replicas share cached answers and rate limits through.
    public var redisURL: String?
    /// `RATE_LIMIT`: requests per caller and route, for routes that do not set their own.
    public var rateLimit: RateLimitPolicy?
    /// `TRUSTED_PROXIES`: IP addresses and CIDR blocks of the proxies trusted to name the client.
    public var trustedProxies: [String]?
    /// `CORS_ALLOWED_ORIGINS`: the origins (`scheme://host[:port]`) whose pages may read answers.
    public var allowedOrigins: [String]?
    /// Each upstream's settings, by the upstream's name (`"weather"`).
    public var upstreams: [String: Upstream] = [:]
    /// Any variable by its name (`["OTEL_SERVICE_NAME": "shop-bff"]`), for a setting without a
    /// property here; a property set here wins over the same variable in this dictionary.
    public var variables: [String: String] = [:]

    /// Settings that leave every variable at its default.
    public init() {}

    /// The environment the gateway reads: these settings as variables, then `environment` over them.
    func environment(overriddenBy environment: [String: String]) -> [String: String] {
        var merged = variables
        func set(_ variable: ConfigurationVariable, _ value: String?) {
            if let value { merged[variable.name] = value }
        }
        set(.host, host)
        set(.port, port.map(String.init))
        set(.logLevel, logLevel?.name)
        set(.requestDeadline, requestDeadline.map { String($0.milliseconds) })
        set(.shutdownDelay, shutdownDelay.map { String($0.milliseconds) })
        set(.drainTimeout, drainTimeout.map { String($0.milliseconds) })
        set(.maximumConnections, maximumConnections.map(String.init))
        set(.maximumConnectionsPerClient, maximumConnectionsPerClient.map(String.init))
        set(.eventLoops, eventLoops.map(String.init))
        set(.endpointsFile, endpointsFile)
        set(.cacheMaximumBytes, cacheMaximumBytes.map(String.init))
        set(.redisURL, redisURL)
        set(.rateLimit, rateLimit?.description)
        set(.trustedProxies, trustedProxies?.joined(separator: ","))
        set(.crossOriginAllowedOrigins, allowedOrigins?.joined(separator: ","))
        for (name, upstream) in upstreams {
            // Only the name is read: it makes the variables' names.
            merged.merge(upstream.variables(of: UpstreamDefinition(name: name, defaultBaseURL: ""))) {
                _, setting in setting
            }
        }
        return merged.merging(environment) { _, fromEnvironment in fromEnvironment }
    }
}

extension GatewaySettings {
    /// One upstream's settings chosen in code: each property is the upstream's variable of the same
    /// meaning (`timeout` is `UPSTREAM_{NAME}_TIMEOUT_MS`), nil for its default, and the environment
    /// overrides them, as for the gateway's own.
    public struct Upstream: Sendable {
        /// `UPSTREAM_{NAME}_URL`: the base URL its calls are made under.
        public var url: String?
        /// `UPSTREAM_{NAME}_TIMEOUT_MS`: the timeout of one call.
        public var timeout: Duration?
        /// `UPSTREAM_{NAME}_BEARER_TOKEN`: a secret sent as `Authorization: Bearer`.
        public var bearerToken: String?
        /// `UPSTREAM_{NAME}_MAX_CONNECTIONS`: connections to it open at once.
        public var maximumConnections: Int?
        /// `UPSTREAM_{NAME}_RETRY_ATTEMPTS`: attempts per call, the first included; 1 disables retries.
        public var retryAttempts: Int?
        /// `UPSTREAM_{NAME}_CACHE`: whether its answers are stored and reused as they allow.
        public var caches: Bool?

        /// Settings of the values given, the others at their defaults.
        public init(
            url: String? = nil, timeout: Duration? = nil, bearerToken: String? = nil,
            maximumConnections: Int? = nil,
            retryAttempts: Int? = nil, caches: Bool? = nil
        ) {
            self.url = url
            self.timeout = timeout
            self.bearerToken = bearerToken
            self.maximumConnections = maximumConnections
            self.retryAttempts = retryAttempts
            self.caches = caches
        }

        /// These settings as the variables of `upstream`.
        fileprivate func variables(of upstream: UpstreamDefinition) -> [String: String] {
            let values: [(ConfigurationVariable, String?)] = [
                (.upstreamURL(upstream), url),
                (.upstreamTimeout(upstream), timeout.map { String($0.milliseconds) }),
                (.upstreamBearerToken(upstream), bearerToken),
                (.upstreamMaximumConnections(upstream), maximumConnections.map(String.init)),
                (.upstreamRetryAttempts(upstream), retryAttempts.map(String.init)),
                (.upstreamCache(upstream), caches.map { $0 ? "on" : "off" }),
            ]
            return Dictionary(
                uniqueKeysWithValues: values.compactMap { variable, value in
                    value.map { (variable.name, $0) }
                })
        }
    }
}
