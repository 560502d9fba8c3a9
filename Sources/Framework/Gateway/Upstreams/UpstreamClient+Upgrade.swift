import UpstreamKit

extension UpstreamClient {
    /// Sends `request`, which asks to switch protocols, once through `connect` after the
    /// upstream's actions (`Upstream.upgrade`); stamped, recorded and counted as `exchange` does,
    /// its credentials left as the request asks (a proxy route's choice).
    func upgrade(
        _ request: consuming Request<Response>, through connect: (TransportRequest) async throws(UpstreamError) -> Response
    ) async throws(UpstreamFailure) -> Response {
        let start = ContinuousClock.now
        var record = CallRecordStart(name: CallRecordStart.name(of: request.destination))
        do throws(UpstreamFailure) {
            let response = try await upstream.upstream.upgrade(stamped(consume request, recording: &record, withCredentials: false), through: connect)
            finish(record, outcome: UpstreamOutcome(answered: response.status), status: response.status.code, cache: nil, since: start)
            return response
        } catch {
            finish(record, failure: error.error, since: start)
            throw error
        }
    }
}
