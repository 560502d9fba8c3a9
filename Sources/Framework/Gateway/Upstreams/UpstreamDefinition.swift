import UpstreamKit

/// An upstream endpoints may call, declared once in code: its name, its default base URL and
/// timeout, and any actions of its own.
///
/// The name picks its environment variables (`UPSTREAM_<NAME>_URL`, `…_TIMEOUT_MS`,
/// `…_BEARER_TOKEN`, `…_OAUTH2_*`, …), labels its metrics and appears in error details such as
/// "upstream swapi answered 503". Every upstream keeps the cookies it sets and sends the
/// credentials its variables configure; `actions` adds steps of a team's own, such as signing.
///
/// ```swift
/// extension UpstreamDefinition {
///     static let weather = UpstreamDefinition(name: "weather", defaultBaseURL: "https://weather.example/api")
/// }
/// ```
public struct UpstreamDefinition: Sendable {
    /// Letters, digits and `-`; unique in a catalog.
    public let name: String
    /// Used when `UPSTREAM_<NAME>_URL` is unset.
    public let defaultBaseURL: String
    /// Used when `UPSTREAM_<NAME>_TIMEOUT_MS` is unset.
    public let defaultTimeout: Duration
    /// Used when `UPSTREAM_<NAME>_MAX_REDIRECTS` is unset.
    public let defaultMaximumRedirects: Int
    /// Used when `UPSTREAM_<NAME>_BREAKER_SERVER_ERRORS` is unset: whether its 5xx answers count
    /// against its circuit breaker, not only transport failures.
    public let defaultBreakerCountsServerErrors: Bool
    /// Makes the upstream's own actions, once per gateway: an action keeps per-upstream state
    /// (tokens, cookies), so instances are never shared between upstreams or gateways.
    let makeActions: @Sendable () -> [any UpstreamAction]
    /// How the shared cache treats its answers unless `UPSTREAM_<NAME>_CACHE*` variables say
    /// otherwise: `.off` for an API whose GETs change state.
    public let cache: CacheSettings
    /// Whether calls take the signed-in user's access token (`Authorization: Bearer`) instead of
    /// credentials of the gateway's own, unless `UPSTREAM_<NAME>_USER_TOKEN` says otherwise: an
    /// endpoint that calls it then needs a browser session (docs/SECURITY.md).
    public let takesUserToken: Bool

    /// Declares an upstream: its name, and the defaults its `UPSTREAM_<NAME>_*` variables override.
    ///
    /// - Parameters:
    ///   - name: letters, digits and `-`; its variables use it upper-cased, `-` as `_`.
    ///   - defaultBaseURL: the base URL when `UPSTREAM_<NAME>_URL` is unset.
    ///   - defaultTimeout: one call's limit when `UPSTREAM_<NAME>_TIMEOUT_MS` is unset.
    ///   - defaultMaximumRedirects: redirects followed in one call, each under the base URL only,
    ///     when `UPSTREAM_<NAME>_MAX_REDIRECTS` is unset; 0 passes them on as answers.
    ///   - defaultBreakerCountsServerErrors: whether 5xx answers (and bodies too large or
    ///     undecodable) count against its circuit breaker when `UPSTREAM_<NAME>_BREAKER_SERVER_ERRORS`
    ///     is unset; by default only transport failures (no connection, reset, timeout) do.
    ///   - cache: the defaults of its cache variables; by default its answers are cached as
    ///     their `Cache-Control` allows.
    ///   - userToken: whether calls carry the signed-in user's access token (`takesUserToken`).
    ///   - actions: makes the actions that run on every call after the configured ones
    ///     (cookies, static headers, bearer token or OAuth2 client credentials), in order.
    public init(
        name: String, defaultBaseURL: String, defaultTimeout: Duration = .seconds(5), defaultMaximumRedirects: Int = 5,
        defaultBreakerCountsServerErrors: Bool = false, cache: CacheSettings = .standard, userToken: Bool = false, actions: @escaping @Sendable () -> [any UpstreamAction] = { [] }
    ) {
        self.name = name
        self.defaultBaseURL = defaultBaseURL
        self.defaultTimeout = defaultTimeout
        self.defaultMaximumRedirects = defaultMaximumRedirects
        self.defaultBreakerCountsServerErrors = defaultBreakerCountsServerErrors
        self.makeActions = actions
        self.cache = cache
        self.takesUserToken = userToken
    }

    /// The prefix of this upstream's environment variables: `UPSTREAM_SWAPI_`.
    var environmentPrefix: String {
        let letters = name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return "UPSTREAM_" + String(letters) + "_"
    }
}
