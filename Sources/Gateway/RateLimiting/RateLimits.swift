/// The gateway's rate limits: the default policy, the one store every limited route keeps its
/// callers in, and a limiter for each route whose setting resolves to a policy.
struct RateLimits: Sendable {
    let configuration: RateLimitConfiguration
    let store: any RateLimitStore
    /// Every route's limiter, in the order they were made.
    private(set) var limiters: [RouteRateLimiter] = []

    init(configuration: RateLimitConfiguration, store: (any RateLimitStore)? = nil) {
        self.configuration = configuration
        self.store = store ?? LocalRateLimitStore(maximumKeys: configuration.maximumClients)
    }

    /// The limiter of a route with `setting`, labelled `route` in metrics; nil when it has no limit.
    mutating func limiter(for setting: RateLimit, route: String) -> RouteRateLimiter? {
        guard let policy = setting.policy(default: configuration.defaultPolicy) else { return nil }
        let limiter = RouteRateLimiter(
            route: route, index: limiters.count, policy: policy, named: setting == .default ? .gatewayDefault : .route, store: store,
            proxies: configuration.trustedProxies)
        limiters.append(limiter)
        return limiter
    }

    func render(into text: inout String) {
        guard !limiters.isEmpty else { return }
        PrometheusText.header(
            "gateway_rate_limit_decisions_total", type: "counter",
            help: "Requests decided by a route's limit per caller, by route and decision (admitted, limited: answered 429).", into: &text)
        for limiter in limiters {
            let (admitted, limited) = limiter.decisions
            let route = PrometheusText.escape(limiter.route)
            text += "gateway_rate_limit_decisions_total{route=\"\(route)\",decision=\"admitted\"} \(admitted)\n"
            text += "gateway_rate_limit_decisions_total{route=\"\(route)\",decision=\"limited\"} \(limited)\n"
        }
        PrometheusText.header(
            "gateway_rate_limit_keys", type: "gauge", help: "Callers (per route) whose rate limit state is held now.", into: &text)
        text += "gateway_rate_limit_keys \(store.keyCount)\n"
    }
}
