import HTTP1Server
import HTTPBasics

/// The gateway's CORS step, around the router: answers preflights before any route's checks (a
/// preflight carries no token and is never limited), and adds the policy's fields to every
/// other answer, refusals included, so that a page can read why it was refused.
final class CrossOrigin: Sendable {
    let policy: CrossOriginPolicy
    /// The metrics of the preflights answered, whatever their path.
    let preflights: RouteMetrics

    init(policy: CrossOriginPolicy, preflights: RouteMetrics) {
        self.policy = policy
        self.preflights = preflights
    }

    /// The answer to `request` when it is a preflight for a route the router serves, asking for
    /// a method it serves there; nil for any other request, which the router answers. Never
    /// inlined, as the next: its temporaries stay out of the responder's async frame.
    @inline(never)
    func preflightAnswer(to request: HTTPRequest, router: Router<RequestScope>) -> HTTPResponse? {
        guard request.method == .options, let origin = request.headers["Origin"],
              let method = request.headers["Access-Control-Request-Method"]
        else { return nil }
        return policy.preflightAnswer(
            origin: origin, requestedMethod: method, requestedHeaders: request.headers["Access-Control-Request-Headers"],
            methods: router.allowedMethods(at: request.path))
    }

    /// Adds the policy's fields to `response`, the answer to `request`, which was no preflight.
    @inline(never)
    func addFields(to response: inout HTTPResponse, for request: HTTPRequest) {
        policy.addFields(to: &response.headers, origin: request.headers["Origin"])
    }
}
