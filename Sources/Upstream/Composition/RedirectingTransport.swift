/// Follows an upstream's redirects as its `RedirectPolicy` allows, and tells the caller how many
/// it followed (`Response.redirects`).
///
/// Its place in an `Upstream`'s stack is below the shared cache and the admission (breaker and
/// concurrency cap), above retries and the action chain:
/// - below the cache, so that the cache stores the final answer under the URL the caller asked
///   for, and a stored answer spares every hop;
/// - below the admission, so that a call holds one slot and counts once for the breaker, by how
///   it ended, whatever its hops;
/// - above retries and actions, so that each hop is retried on its own and prepared afresh: its
///   token, cookies (those the previous hop set included) and deadline. Credentials may go with
///   every hop because a followed target stays under the base URL, on the same origin.
///
/// An answer that is not a redirect costs one status check. A request that does not follow
/// redirects (`TransportRequest.followsRedirects`) gets them as answers.
struct RedirectingTransport: Transport {
    private let base: any Transport
    private let policy: RedirectPolicy

    init(wrapping base: any Transport, policy: RedirectPolicy) {
        self.base = base
        self.policy = policy
    }

    var enforcesTimeout: Bool { base.enforcesTimeout }

    func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        let response = try await base.send(request)
        guard RedirectPolicy.isRedirect(response.status), request.followsRedirects else { return response }
        return try await following(response, to: request)
    }

    /// Never inlined into `send`: its temporaries would otherwise enlarge the async frame that
    /// every call in flight holds while it waits for the upstream.
    @inline(never)
    private func following(_ first: Response, to request: TransportRequest) async throws(UpstreamError) -> Response {
        var response = first
        var current = request
        var redirects = 0
        while true {
            switch policy.step(after: response, to: current, redirectsSoFar: redirects) {
            case .answer:
                response.redirects = redirects
                return response
            case .refuse(let error):
                throw error
            case .follow(let next):
                redirects += 1
                current = next
                response = try await base.send(next)
            }
        }
    }
}
