import HTTPBasics
import UpstreamKit

/// An upstream ready for calls: the `Upstream` that reaches it (breaker, retries,
/// credentials, cookies and headers) and the gateway's metrics for it.
///
/// A class so that handing it to every call copies one reference, not the whole configuration.
final class ConfiguredUpstream: Sendable {
    let configuration: UpstreamConfiguration
    /// The `User-Agent` every call carries unless it has its own, checked once, here.
    let userAgent: HTTPHeaders.Field?
    let upstream: Upstream
    let metrics: UpstreamMetrics
    /// Receives the line for a failure that needs an operator (an untrusted certificate), if given.
    let warn: (@Sendable (String) -> Void)?

    /// Wraps `transport` in the upstream's resilience and actions (the configured ones, then
    /// `actions`, its definition's own), and in the shared `cache` when given (with `sharedTier`
    /// behind it); `log` receives one line per attempt (credentials redacted) when given, `warn` one line per call failed by an untrusted certificate. OAuth2 token
    /// requests go through `tokenTransport` (else `transport`, with a timeout), never through the
    /// upstream's chain.
    ///
    /// - Throws: `.invalidRequest` when a configured header or token cannot be sent, which the
    ///   configuration loader has already ruled out.
    init(
        configuration: UpstreamConfiguration, transport: any Transport, tokenTransport: (any Transport)? = nil,
        actions definedActions: [any UpstreamAction] = [],
        cache: ResponseCache? = nil,
        sharedTier: (any SharedResponseTier)? = nil,
        log: (@Sendable (String) -> Void)? = nil,
        warn: (@Sendable (String) -> Void)? = nil
    ) throws(UpstreamError) {
        var actions: [any UpstreamAction] = [DeadlineAction(), CookieJar()]
        if !configuration.headers.isEmpty {
            // `UPSTREAM_{NAME}_HEADERS` usually carry an API key: withheld where the token is.
            actions.append(try StaticHeaders(configuration.headers, areCredentials: true))
        }
        if let token = configuration.bearerToken {
            actions.append(try BearerToken(token))
        }
        if let oauth2 = configuration.oauth2 {
            actions.append(try OAuth2ClientCredentials(
                tokenURL: oauth2.tokenURL.description, clientID: oauth2.clientID, clientSecret: oauth2.clientSecret, scope: oauth2.scope,
                transport: tokenTransport ?? TimeoutTransport(wrapping: transport)))
        }
        actions += definedActions
        let userAgent = configuration.userAgent.map { HTTPHeaders.Field(name: "User-Agent", value: $0) }
        if let userAgent, !userAgent.hasValidSyntax {
            throw .invalidRequest(reason: "header field User-Agent is not allowed")
        }
        self.userAgent = userAgent
        let settings = UpstreamSettings(
            timeout: configuration.timeout,
            maximumConnections: configuration.maximumConnections,
            maximumResponseBytes: configuration.maximumResponseBytes,
            retryPolicy: configuration.retryPolicy,
            maximumRedirects: configuration.maximumRedirects,
            circuitBreaker: configuration.circuitBreaker,
            actions: actions,
            cache: configuration.cache,
            acceptsCompression: configuration.acceptsCompression)
        self.configuration = configuration
        let upstream = Upstream(
            name: configuration.name, baseURL: configuration.baseURL, settings: settings, transport: transport, cache: cache,
            sharedTier: sharedTier, log: log)
        self.upstream = upstream
        self.metrics = UpstreamMetrics(name: configuration.name) { Self.refusesCalls(upstream.circuitState, at: .now) }
        self.warn = warn
    }

    /// Whether the circuit breaker currently refuses calls, for `/readyz`'s detail and `/metrics`.
    ///
    /// Past its cool-down an open circuit admits the next call as a probe, so it no longer counts
    /// as open.
    var isCircuitOpen: Bool {
        Self.refusesCalls(upstream.circuitState, at: .now)
    }

    /// Whether a breaker in `state` refuses calls at `now`: open, and within its cool-down.
    static func refusesCalls(_ state: CircuitBreaker.State, at now: ContinuousClock.Instant) -> Bool {
        if case .open(let until) = state { return now < until }
        return false
    }
}
