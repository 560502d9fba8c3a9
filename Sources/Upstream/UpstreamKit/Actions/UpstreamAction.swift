/// One step of an upstream's action chain: it may change each request before it leaves and read
/// each response when it arrives.
///
/// Actions hold per-upstream state (tokens, cookies), so an instance belongs to exactly one
/// `Upstream`; that is what keeps one upstream's secrets out of another's requests.
public protocol UpstreamAction: Sendable {
    /// Called before every attempt, in chain order. `request.requiresAuthentication` says whether
    /// credentials belong on it.
    func prepare(_ request: inout TransportRequest) async throws(UpstreamError)

    /// Called after every response, in chain order, with the request exactly as it was sent.
    /// Return `.resend` to have the chain prepare and send the request once more (at most once per call).
    func received(_ response: Response, for request: TransportRequest) async throws(UpstreamError) -> ResponseVerdict

    /// Called instead of `received` when an attempt got no response: the transport failed, or an
    /// action's `prepare` threw (then `request` is as far as it was prepared). For actions that
    /// count requests in flight.
    func abandoned(_ request: TransportRequest) async
}

extension UpstreamAction {
    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {}

    public func received(_ response: Response, for request: TransportRequest) async throws(UpstreamError) -> ResponseVerdict {
        .accept
    }

    public func abandoned(_ request: TransportRequest) async {}
}
