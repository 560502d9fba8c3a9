/// Follows an upstream's redirects as its `RedirectPolicy` allows, and tells the caller how many
/// it followed (`Response.redirects`): the I/O part of redirects.
///
/// `Upstream` calls it on top of its whole stack, only when an answer is a redirect, and sends
/// each hop through that stack as a call of its own:
/// - through the shared cache, so that each URL's answer is stored under that URL (a `301` under
///   the URL that moved, as any HTTP cache does), never under the URL of another hop;
/// - through the breaker, retries and the action chain, so that each hop is
///   admitted, retried and prepared afresh: its token, cookies (those the previous hop set
///   included) and deadline. Credentials may go with every hop because a followed target stays
///   under the base URL, on the same origin.
///
/// An answer that is not a redirect costs one status check in `Upstream`, and no layer of its
/// own in every call's chain of async frames.
struct RedirectFollower: Sendable {
    let policy: RedirectPolicy

    /// The answer at the end of the redirects that start with `first`, the answer to `request`.
    ///
    /// - Throws: `.refusedRedirect` for a target outside the base URL and `.tooManyRedirects`
    ///   past the limit, with nothing sent; whatever a hop throws.
    func follow(_ first: Response, to request: TransportRequest, via transport: any Transport) async throws(UpstreamError) -> Response {
        // A streamed body is read once: its request cannot be sent again.
        guard request.followsRedirects, request.bodyStream == nil else { return first }
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
                response = try await transport.send(next)
            }
        }
    }
}
