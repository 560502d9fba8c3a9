import UpstreamKit

/// One environment variable the gateway reads: its name, its default and what it does.
///
/// The same values drive both `--help` and the loader, so the documented default is the one used.
struct ConfigurationVariable: Sendable {
    let name: String
    /// The value used when the variable is unset; empty for "none".
    let defaultValue: String
    let summary: String
    /// Whether the value may hold a secret, which error messages must never quote.
    let isSecret: Bool

    init(_ name: String, default defaultValue: String, _ summary: String, isSecret: Bool = false) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
        self.isSecret = isSecret
    }

    static let port = ConfigurationVariable("PORT", default: "8080", "TCP port to listen on; 0 picks a free one")
    static let host = ConfigurationVariable("HOST", default: "0.0.0.0", "address to listen on")
    static let reusePort = ConfigurationVariable(
        "REUSE_PORT", default: "on",
        "on: another gateway of the same user may listen on the same port beside this one (SO_REUSEPORT), "
            + "for an upgrade without a gap; off: it fails with 'Address already in use'")
    static let logLevel = ConfigurationVariable(
        "LOG_LEVEL", default: "info", "debug, info, warning, error or off; access log lines are info")
    static let requestDeadline = ConfigurationVariable(
        "REQUEST_DEADLINE_MS", default: "10000", "overall deadline of one combined request, upstream calls included")
    static let shutdownDelay = ConfigurationVariable(
        "SHUTDOWN_DELAY_MS", default: "5000",
        "on SIGTERM, how long /readyz fails while requests are still served, before accepting stops; "
            + "a second signal cuts it short (0 with --demo unless set)")
    static let drainTimeout = ConfigurationVariable(
        "DRAIN_TIMEOUT_MS", default: "10000", "after that delay, how long in-flight requests may finish before connections close")
    static let maximumConnections = ConfigurationVariable(
        "MAX_CONNECTIONS", default: "4096",
        "client connections open at once; past them the oldest kept-alive one is closed, or the new one answered 503 when none is idle")
    static let maximumConnectionsPerClient = ConfigurationVariable(
        "MAX_CONNECTIONS_PER_CLIENT", default: "256",
        "client connections one address (an IPv6 /64) may hold open; past them its oldest kept-alive one is closed, "
            + "or the new one answered 503 when none is idle; TRUSTED_PROXIES are exempt; 0 turns the cap off")
    static let eventLoops = ConfigurationVariable(
        "EVENT_LOOPS", default: String(ProcessorBudget.available),
        "threads that serve connections and upstream calls; by default one per CPU the process may use")

    static func upstreamURL(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(upstream.environmentPrefix + "URL", default: upstream.defaultBaseURL, "base URL of upstream \(upstream.name)")
    }

    static func upstreamTimeout(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "TIMEOUT_MS", default: String(upstream.defaultTimeout.milliseconds),
            "timeout of one call to \(upstream.name), in milliseconds")
    }

    static func upstreamMaximumConnections(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "MAX_CONNECTIONS", default: String(UpstreamConfiguration.defaultMaximumConnections),
            "connections to \(upstream.name) open at once; \(UpstreamConfiguration.defaultMaximumWaitingCalls) more calls may wait for one, then 503")
    }

    static func upstreamBearerToken(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "BEARER_TOKEN", default: "",
            "token sent as Authorization: Bearer on calls to \(upstream.name) (through a proxy route only with upstream_credentials send)",
            isSecret: true)
    }

    static func upstreamHeaders(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "HEADERS", default: "",
            "extra headers for \(upstream.name), 'Name: value' pairs separated by ';', sent as its token is", isSecret: true)
    }

    static func upstreamUserToken(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "USER_TOKEN", default: upstream.takesUserToken ? "on" : "off",
            "on: calls to \(upstream.name) carry the signed-in user's access token (needs OIDC_ISSUER); endpoints calling it need a session")
    }

    static func upstreamUserAgent(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "USER_AGENT", default: GatewayVersion.userAgent,
            "User-Agent of calls to \(upstream.name) (a proxied client's own passes through instead); empty sends none")
    }

    static func upstreamMaximumResponseBytes(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "MAX_RESPONSE_BYTES", default: String(UpstreamConfiguration.defaultMaximumResponseBytes),
            "largest response body accepted from \(upstream.name); larger answers fail with 502")
    }

    static func upstreamRetryAttempts(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "RETRY_ATTEMPTS", default: String(RetryPolicy().maximumAttempts),
            "attempts per call to \(upstream.name), the first included; 1 disables retries")
    }

    static func upstreamRetryBackoff(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "RETRY_BACKOFF_MS", default: String(RetryPolicy().initialBackoff.milliseconds),
            "backoff before the first retry of \(upstream.name), doubling for each later one up to "
                + "\(RetryPolicy().maximumBackoff.milliseconds) ms, jittered")
    }

    static func upstreamBreakerFailures(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "BREAKER_FAILURES", default: String(CircuitBreakerSettings().failureThreshold),
            "consecutive failed calls that open the circuit of \(upstream.name); 0 disables the breaker")
    }

    static func upstreamBreakerCoolDown(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "BREAKER_COOLDOWN_MS", default: String(CircuitBreakerSettings().coolDown.milliseconds),
            "how long an open circuit of \(upstream.name) refuses calls before one probe may pass")
    }

    static func upstreamBreakerServerErrors(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "BREAKER_SERVER_ERRORS", default: upstream.defaultBreakerCountsServerErrors ? "on" : "off",
            "on: 5xx answers of \(upstream.name) count against its circuit too; off: only transport failures (refused, reset, timeout)")
    }

    static func upstreamMaximumRedirects(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "MAX_REDIRECTS", default: String(upstream.defaultMaximumRedirects),
            "redirects followed in one call to \(upstream.name), under its base URL only; 0 passes them on as answers")
    }

    /// Every variable of one upstream, in the order `--help` lists them.
    static func all(for upstream: UpstreamDefinition) -> [ConfigurationVariable] {
        [
            upstreamURL(upstream), upstreamTimeout(upstream), upstreamMaximumConnections(upstream),
            upstreamBearerToken(upstream), upstreamUserToken(upstream), upstreamHeaders(upstream), upstreamUserAgent(upstream), upstreamMaximumResponseBytes(upstream),
            upstreamRetryAttempts(upstream), upstreamRetryBackoff(upstream), upstreamBreakerFailures(upstream),
            upstreamBreakerCoolDown(upstream), upstreamBreakerServerErrors(upstream), upstreamMaximumRedirects(upstream), upstreamCAFile(upstream), upstreamClientCertificateFile(upstream),
            upstreamClientKeyFile(upstream),
        ] + oauth2(for: upstream) + cache(for: upstream) + [upstreamCompression(upstream)]
    }

    /// The variables of the gateway itself, in the order `--help` lists them.
    static let server: [ConfigurationVariable] = [
        port, host, reusePort, logLevel, requestDeadline, shutdownDelay, drainTimeout, maximumConnections, maximumConnectionsPerClient, eventLoops,
        endpointsFile,
        tlsCertificateFile, tlsKeyFile,
    ] + clientCompression + cache + redis + authentication + browserSignIn + rateLimits + crossOrigin + webSocket + tracing
}
