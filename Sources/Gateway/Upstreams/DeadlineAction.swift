import Upstream

/// Clamps every attempt's timeout to what is left of the current request's deadline, so
/// retries and slow upstreams never outlive the request that needs them.
///
/// `Upstream` sets each attempt's timeout from its own settings; this action runs inside its
/// chain, after that, and knows the request through `RequestScope.current`, which child tasks
/// inherit.
struct DeadlineAction: UpstreamAction {
    func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        guard let deadline = RequestScope.current?.deadline else { return }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw .timedOut }
        request.timeout = min(request.timeout, remaining)
    }
}
