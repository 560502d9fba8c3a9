import HTTP1Client
import HTTP1Server
import NetworkRuntime
import RedisClient

/// Everything the gateway reads from its environment, validated.
struct GatewayConfiguration: Sendable {
    var host: String
    var port: Int
    /// Whether a second process may listen on the same port (`REUSE_PORT`), for a binary upgrade.
    var sharesPort: Bool
    var logLevel: LogLevel
    /// The overall deadline of one combined request; each upstream call gets the smaller of
    /// its own timeout and what is left of this.
    var requestDeadline: Duration
    /// How long after SIGTERM readiness fails while the gateway still accepts and serves, before
    /// it stops accepting and drains.
    var shutdownDelay: Duration
    /// How long in-flight requests may run after the listener closed before connections are closed.
    var drainTimeout: Duration
    var maximumConnections: Int
    /// Connections one client address may hold open (`MAX_CONNECTIONS_PER_CLIENT`); nil for no cap.
    var maximumConnectionsPerClient: Int?
    /// Event loops, each a thread with its own connections and upstream connection pools.
    var eventLoopCount: Int
    var upstreams: [UpstreamConfiguration]
    /// The egress proxies for upstream calls, or nil to reach upstreams directly.
    var proxy: ProxySettings?
    /// Serves HTTPS with this context (`TLS_CERT_FILE`, `TLS_KEY_FILE`), or plain HTTP when nil.
    var tls: TLSContext?
    /// The memory for stored upstream answers (`CACHE_MAX_BYTES`); 0 when the cache is off.
    var cacheMaximumBytes: Int
    /// The largest answer stored (`CACHE_MAX_ENTRY_BYTES`).
    var cacheMaximumEntryBytes: Int
    /// How clients prove who they are (`AUTH_*`); nil when no route requires a token.
    var authentication: AuthenticationConfiguration?
    /// The browser sign-in (`OIDC_*`, `BFF_*`, `SESSION_*`); nil when `OIDC_ISSUER` is unset.
    var browserSignIn: BrowserSignInConfiguration?
    /// The Redis that replicas share cached answers through (`REDIS_URL`…); nil for none.
    var redis: RedisConfiguration?
    /// Requests per caller (`RATE_LIMIT`, `TRUSTED_PROXIES`, …).
    var rateLimits: RateLimitConfiguration
    /// Which origins' pages may read answers (`CORS_*`); nil when CORS is off.
    var crossOrigin: CrossOriginPolicy?
    /// Gzip for clients that accept it (`COMPRESSION`, `COMPRESSION_MIN_BYTES`); nil when off.
    var compression: ResponseCompression?
    /// Span export to an OTLP collector; nil when off.
    var tracing: TracingConfiguration?
    /// How long a WebSocket through a proxy route may stay without traffic (`WEBSOCKET_IDLE_TIMEOUT_MS`).
    var webSocketIdleTimeout: Duration = .seconds(300)
    /// How many WebSockets may be open through proxy routes at once (`WEBSOCKET_MAX_CONNECTIONS`).
    var webSocketMaximumConnections = 1024

    /// Reads the gateway's variables and those of each upstream in `definitions`; those of the
    /// upstreams `onOffer` are accepted and not read.
    init(
        environment: [String: String], upstreams definitions: [UpstreamDefinition], onOffer: [UpstreamDefinition] = []
    ) throws(ConfigurationError) {
        try UpstreamVariableCheck.check(environment, upstreams: definitions + onOffer)
        let reader = EnvironmentReader(environment: environment)
        port = try reader.integer(.port, in: 0...65535)
        host = reader.text(.host)
        sharesPort = try reader.choice(.reusePort, from: ["on", "off"]) == "on"
        guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationError(variable: ConfigurationVariable.host.name, problem: "must be an IP address or host name")
        }
        logLevel = try reader.logLevel(.logLevel)
        requestDeadline = try reader.milliseconds(.requestDeadline, in: 1...600_000)
        shutdownDelay = try reader.milliseconds(.shutdownDelay, in: 0...600_000)
        drainTimeout = try reader.milliseconds(.drainTimeout, in: 0...600_000)
        maximumConnections = try reader.integer(.maximumConnections, in: 1...1_000_000)
        let perClient = try reader.integer(.maximumConnectionsPerClient, in: 0...1_000_000)
        maximumConnectionsPerClient = perClient == 0 ? nil : perClient
        eventLoopCount = try reader.integer(.eventLoops, in: 1...256)
        tls = try reader.serverTLS()
        cacheMaximumBytes = try reader.integer(.cacheMaximumBytes, in: 0...(1 << 40))
        cacheMaximumEntryBytes = try reader.integer(.cacheMaximumEntryBytes, in: 1024...(1 << 30))
        authentication = try AuthenticationConfiguration.read(reader)
        browserSignIn = try BrowserSignInConfiguration.read(reader)
        redis = try reader.redis(maximumEntryBytes: cacheMaximumEntryBytes)
        rateLimits = try RateLimitConfiguration.read(reader)
        crossOrigin = try reader.crossOriginPolicy()
        compression = try reader.responseCompression()
        tracing = try reader.tracing()
        webSocketIdleTimeout = try reader.milliseconds(.webSocketIdleTimeout, in: 100...86_400_000)
        webSocketMaximumConnections = try reader.integer(.webSocketMaximumConnections, in: 0...1_000_000)
        var upstreams: [UpstreamConfiguration] = []
        for definition in definitions {
            upstreams.append(try UpstreamConfiguration(definition, reading: reader))
        }
        self.upstreams = upstreams
        if let browserSignIn, redis != nil, browserSignIn.sealer == nil {
            throw ConfigurationError(
                variable: ConfigurationVariable.sessionEncryptionKey.name,
                problem: "is required with OIDC_ISSUER and REDIS_URL: the replicas share sessions through Redis, sealed with it")
        }
        if browserSignIn == nil, let definition = definitions.first(where: { definition in upstreams.contains { $0.name == definition.name && $0.takesUserToken } }) {
            throw ConfigurationError(variable: ConfigurationVariable.upstreamUserToken(definition).name, problem: "needs OIDC_ISSUER: users sign in there")
        }
        proxy = try reader.proxySettings()
    }

    /// The `--help` text: usage, then every variable with its default.
    static func helpText(upstreams definitions: [UpstreamDefinition], switch catalogSwitch: CatalogSwitch? = nil, hasDemo: Bool = true) -> String {
        var lines = [
            hasDemo ? "usage: gateway [--demo | --check | --help | --jmespath EXPRESSION [--legacy-literals]]"
                : "usage: gateway [--check | --help | --jmespath EXPRESSION [--legacy-literals]]",
            "",
        ]
        if hasDemo {
            lines.append("  --demo   serve fixture copies of the upstreams on loopback and point the gateway at them")
        }
        lines += [
            "  --check  read the configuration and the endpoints file as start-up does, print a summary and exit",
            "  --help   print this text",
            "  --jmespath EXPRESSION",
            "           evaluate a JMESPath expression (community edition, as in the endpoints file) on the JSON",
            "           document read from standard input; print the result as one JSON line, or the error on",
            "           standard error with exit status 1; --legacy-literals reads `text` that is not JSON as a",
            "           string, as the original specification did",
            "",
            "Environment variables (default in brackets):",
        ]
        let variables = ConfigurationVariable.server + [catalogSwitch?.configurationVariable].compactMap { $0 } + ConfigurationVariable.proxies
            + definitions.flatMap(ConfigurationVariable.all(for:))
        let width = variables.map(\.name.count).max() ?? 0
        for variable in variables {
            let padding = String(repeating: " ", count: width - variable.name.count)
            let defaultText = variable.defaultValue.isEmpty ? "none" : variable.defaultValue
            lines.append("  \(variable.name)\(padding)  \(variable.summary) [\(defaultText)]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
