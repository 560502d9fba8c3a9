import CallerIdentity
import HTTP1Server
import HTTPBasics
import Synchronization

/// The rate limit of one route: decides on each request of a caller (its token's `sub`, else its
/// address) and counts the decisions for `/metrics`.
final class RouteRateLimiter: Sendable {
    /// The route's label in metrics.
    let route: String
    let policy: RateLimitPolicy
    /// The route's number among the limited routes, part of every key in a store of this process.
    let index: Int
    private let rate: GenericCellRate
    private let store: any RateLimitStore
    private let proxies: TrustedProxies
    let policyName: RateLimitFields.PolicyName
    private let policyItem: String
    private let admitted = Atomic<Int>(0)
    private let limited = Atomic<Int>(0)

    /// - Parameters:
    ///   - index: the route's own number among the limited routes, part of every key.
    ///   - policyName: whether `policy` is the gateway's default or the route's own, as clients see it.
    init(
        route: String, index: Int, policy: RateLimitPolicy, named policyName: RateLimitFields.PolicyName, store: any RateLimitStore,
        proxies: TrustedProxies
    ) {
        self.route = route
        self.index = index
        self.policy = policy
        rate = GenericCellRate(policy)
        self.store = store
        self.proxies = proxies
        self.policyName = policyName
        policyItem = RateLimitFields.policyItem(policy, named: policyName)
    }

    /// Nil when `request` may go on, else the 429 to answer instead. Either way the answer gets
    /// the `RateLimit` fields, through `scope`.
    ///
    /// - Parameter identity: the caller's verified token, when the route checked one.
    func admit(_ request: HTTPRequest, identity: Identity?, scope: RequestScope) async -> HTTPResponse? {
        let subject = identity?.subject
        guard let key = RateLimitKey(route: index, subject: subject, address: subject?.isEmpty == false ? nil : proxies.clientAddress(of: request)) else {
            return nil
        }
        let decision = await store.decide(key, under: rate, route: route)
        let fields = RateLimitFields(name: policyName, policy: policyItem, remaining: decision.remaining, reset: decision.waitSeconds)
        scope.rateLimitFields = fields
        if decision.isAdmitted {
            admitted.add(1, ordering: .relaxed)
            return nil
        }
        limited.add(1, ordering: .relaxed)
        return GatewayProblem(
            .tooManyRequests, "this caller has made more requests than the route allows (\(policy)); retry after \(decision.waitSeconds) s",
            retryAfter: .microseconds(decision.wait)
        ).response(instance: request.path)
    }

    /// Decisions so far: requests admitted and requests refused.
    var decisions: (admitted: Int, limited: Int) {
        (admitted.load(ordering: .relaxed), limited.load(ordering: .relaxed))
    }
}
