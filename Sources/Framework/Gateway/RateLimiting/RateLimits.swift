/// The gateway's rate limits: the default policy, the one store every limited route keeps its
/// callers in, and a limiter for each route whose setting resolves to a policy.
struct RateLimits: Sendable {
    let configuration: RateLimitConfiguration
    let store: any RateLimitStore
    /// Every route's limiter, in the order they were made.
    private(set) var limiters: [RouteRateLimiter] = []
    /// The limiters of the configuration a reload replaces, until each route has its own.
    private var previous: [RouteRateLimiter] = []
    /// The number of the next new limiter: never one a kept limiter has, so their callers' states stay apart.
    private var nextIndex = 0

    init(configuration: RateLimitConfiguration, store: (any RateLimitStore)? = nil) {
        self.configuration = configuration
        self.store = store ?? LocalRateLimitStore(maximumKeys: configuration.maximumClients)
    }

    /// The rate limits of a reloaded configuration: `previous`'s store and settings (the
    /// environment is the same), and its limiter for each route whose label and policy are the
    /// same, so that its callers' state and its counts go on.
    init(reloading previous: RateLimits) {
        configuration = previous.configuration
        store = previous.store
        self.previous = previous.limiters
        nextIndex = previous.nextIndex
    }

    /// The limiter of a route with `setting`, labelled `route` in metrics; nil when it has no limit.
    mutating func limiter(for setting: RateLimit, route: String) -> RouteRateLimiter? {
        guard let policy = setting.policy(default: configuration.defaultPolicy) else { return nil }
        let name: RateLimitFields.PolicyName = setting == .default ? .gatewayDefault : .route
        if let kept = previous.first(where: { $0.route == route && $0.policy == policy && $0.policyName == name }) {
            limiters.append(kept)
            return kept
        }
        let limiter = RouteRateLimiter(
            route: route, index: nextIndex, policy: policy, named: name, store: store, proxies: configuration.trustedProxies)
        nextIndex += 1
        limiters.append(limiter)
        return limiter
    }

    /// Forgets the replaced configuration's limiters once every route has taken its own.
    mutating func dropPrevious() {
        previous = []
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
