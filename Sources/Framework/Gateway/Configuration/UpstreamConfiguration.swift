import HTTPBasics
import NetworkRuntime
import UpstreamKit

/// One upstream's settings as read from the environment.
struct UpstreamConfiguration: Sendable {
    let name: String
    var baseURL: BaseURL
    /// The limit for one call, from sending to the last byte.
    var timeout: Duration
    /// Connections to the upstream open at once, shared out among the event loops: the calls in
    /// flight at most. Calls beyond them wait in the pool's queue, the only one they wait in.
    var maximumConnections: Int
    /// Calls that may wait for a connection at once, shared out among the event loops as the
    /// connections are; beyond them a call fails at once as `.overloaded` (503).
    var maximumWaitingCalls = defaultMaximumWaitingCalls
    /// Sent as `Authorization: Bearer …` on every request; never logged or printed.
    var bearerToken: String?
    /// Extra static headers sent on every request.
    var headers: HTTPHeaders
    /// Sent as `User-Agent` on every request that carries none of its own; nil sends none.
    var userAgent: String?
    /// The largest response body accepted; anything larger fails the call as oversized.
    var maximumResponseBytes: Int
    /// Attempts and backoff; what is retried, the jitter and the retry budget stay the library's.
    var retryPolicy: RetryPolicy
    var circuitBreaker: CircuitBreakerSettings
    /// Redirects followed in one call, under the base URL only; 0 passes them on as answers.
    var maximumRedirects = 5
    /// Client credentials to fetch tokens with, instead of a fixed bearer token.
    var oauth2: OAuth2Configuration?
    /// How calls to an `https` base URL verify the upstream and present a client certificate; nil for `http`.
    var tls: TLSContext?
    /// How token requests verify an `https` OAuth2 token endpoint: the upstream's own settings when
    /// its URL is `https` too, else the system's trust; nil without OAuth2 or for an `http` endpoint.
    var tokenTLS: TLSContext?
    /// How the shared cache treats this upstream's answers.
    var cache: CacheSettings = .standard
    /// Whether calls ask for gzip or deflate answers and inflate them.
    var acceptsCompression = true
    /// Whether calls carry the signed-in user's access token (`UPSTREAM_{NAME}_USER_TOKEN`).
    var takesUserToken = false

    /// Connections to one upstream unless `UPSTREAM_{NAME}_MAX_CONNECTIONS` says otherwise: a
    /// gateway's many clients need more than a library client's (`UpstreamSettings`).
    static let defaultMaximumConnections = 512
    /// Calls to one upstream that may wait for a connection at once unless set otherwise.
    static let defaultMaximumWaitingCalls = 8192
    /// The largest answer accepted unless `UPSTREAM_{NAME}_MAX_RESPONSE_BYTES` says otherwise:
    /// a client's answer is trimmed from it, so it is held whole, once per call in flight.
    static let defaultMaximumResponseBytes = 4 << 20

    init(
        name: String,
        baseURL: BaseURL,
        timeout: Duration = .seconds(5),
        maximumConnections: Int = defaultMaximumConnections,
        bearerToken: String? = nil,
        headers: HTTPHeaders = [:],
        userAgent: String? = GatewayVersion.userAgent,
        maximumResponseBytes: Int = defaultMaximumResponseBytes,
        retryPolicy: RetryPolicy = RetryPolicy(),
        circuitBreaker: CircuitBreakerSettings = CircuitBreakerSettings()
    ) {
        self.name = name
        self.baseURL = baseURL
        self.timeout = timeout
        self.maximumConnections = maximumConnections
        self.bearerToken = bearerToken
        self.headers = headers
        self.userAgent = userAgent
        self.maximumResponseBytes = maximumResponseBytes
        self.retryPolicy = retryPolicy
        self.circuitBreaker = circuitBreaker
    }

    /// Reads the `UPSTREAM_{NAME}_*` variables of `definition`, in the order `--help` lists them.
    init(_ definition: UpstreamDefinition, reading reader: EnvironmentReader) throws(ConfigurationError) {
        self.init(
            name: definition.name,
            baseURL: try reader.baseURL(.upstreamURL(definition)),
            timeout: try reader.milliseconds(.upstreamTimeout(definition), in: 1...600_000),
            maximumConnections: try reader.integer(.upstreamMaximumConnections(definition), in: 1...10_000),
            bearerToken: try reader.token(.upstreamBearerToken(definition)),
            headers: try reader.headers(.upstreamHeaders(definition)),
            userAgent: try reader.headerValue(.upstreamUserAgent(definition)),
            maximumResponseBytes: try reader.integer(.upstreamMaximumResponseBytes(definition), in: 1024...(1 << 30)))
        // One variable per field: a User-Agent among the headers would override proxied clients' own.
        if headers.contains("User-Agent") {
            throw ConfigurationError(
                variable: ConfigurationVariable.upstreamHeaders(definition).name,
                problem: "must not set User-Agent; \(ConfigurationVariable.upstreamUserAgent(definition).name) sets it")
        }
        retryPolicy.maximumAttempts = try reader.integer(.upstreamRetryAttempts(definition), in: 1...10)
        // A first backoff above the ceiling would silently become the ceiling, so it is refused instead.
        retryPolicy.initialBackoff = try reader.milliseconds(
            .upstreamRetryBackoff(definition), in: 0...Int(retryPolicy.maximumBackoff.milliseconds))
        let breakerFailures = try reader.integer(.upstreamBreakerFailures(definition), in: 0...10_000)
        let breakerCoolDown = try reader.milliseconds(.upstreamBreakerCoolDown(definition), in: 1...600_000)
        let breakerCountsServerErrors = try reader.choice(.upstreamBreakerServerErrors(definition), from: ["on", "off"]) == "on"
        circuitBreaker = breakerFailures == 0
            ? .disabled
            : CircuitBreakerSettings(failureThreshold: breakerFailures, coolDown: breakerCoolDown, countsServerErrors: breakerCountsServerErrors)
        maximumRedirects = try reader.integer(.upstreamMaximumRedirects(definition), in: 0...20)
        tls = try reader.upstreamTLS(definition, baseURL: baseURL)
        oauth2 = try OAuth2Configuration.read(definition, reading: reader)
        cache = try reader.upstreamCache(definition)
        acceptsCompression = try reader.choice(.upstreamCompression(definition), from: ["on", "off"]) == "on"
        takesUserToken = try reader.choice(.upstreamUserToken(definition), from: ["on", "off"]) == "on"
        if takesUserToken {
            // One Authorization per call: the user's, or the gateway's own.
            for variable in [ConfigurationVariable.upstreamBearerToken(definition), .upstreamOAuth2TokenURL(definition)] where !reader.text(variable).isEmpty {
                throw ConfigurationError(variable: variable.name, problem: "cannot be set along with \(ConfigurationVariable.upstreamUserToken(definition).name)=on")
            }
        }
        if let oauth2, oauth2.tokenURL.origin.scheme == "https" {
            if let tls {
                tokenTLS = tls
            } else {
                tokenTLS = try reader.upstreamTLS(definition, baseURL: oauth2.tokenURL)
            }
        }
    }
}
