import UpstreamKit

/// Clamps every attempt's timeout to what is left of the call's deadline (`TransportRequest.deadline`,
/// the client request's own), so retries and slow upstreams never outlive the request that needs them.
///
/// `Upstream` sets each attempt's timeout from its own settings; this action runs inside its
/// chain, after that, before every attempt.
struct DeadlineAction: UpstreamAction {
    func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        guard let deadline = request.deadline else { return }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw .timedOut }
        request.timeout = min(request.timeout, remaining)
    }
}
