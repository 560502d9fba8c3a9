extension Upstream {
    /// Sends `request` once, as `connect` sends it, after this upstream's actions prepared it
    /// (credentials, cookies, static fields), and shows them the answer: for a request that
    /// switches protocols (a WebSocket), whose connection outlives the call and is not the
    /// transport's to pool.
    ///
    /// Only the actions take part: no cache, no retry (an answer asking to resend is returned as
    /// it is), no circuit breaker, no redirect followed. `connect` returns the
    /// answer to show the actions, and keeps any connection it opened for its caller.
    public func upgrade(
        _ request: Request<Response>, through connect: (TransportRequest) async throws(UpstreamError) -> Response
    ) async throws(UpstreamFailure) -> Response {
        do throws(UpstreamError) {
            var wireRequest = try wireRequest(for: request)
            wireRequest.cache = nil
            let chain = ActionChain(settings.actions, wrapping: transport)
            let prepared = try await chain.prepared(wireRequest)
            let response: Response
            do {
                response = try await connect(prepared)
            } catch {
                await chain.abandon(prepared)
                throw error
            }
            _ = try await chain.verdict(on: response, to: prepared)
            return response
        } catch {
            throw UpstreamFailure(upstream: name, error: error)
        }
    }
}
