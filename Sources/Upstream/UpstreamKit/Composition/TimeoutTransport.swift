/// Bounds each attempt by its `TransportRequest.timeout`, whatever the wrapped transport does.
///
/// The attempt races a timer in a task group; the loser is cancelled. This does not rely on the
/// transport's own timers (URLSession's are idle timers, truncated to whole seconds on Linux), only on
/// the transport honouring cancellation promptly, which every transport here does.
public struct TimeoutTransport: Transport {
    private let base: any Transport

    public init(wrapping base: any Transport) {
        self.base = base
    }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        guard request.timeout > .zero else { throw .timedOut }
        let base = self.base
        let outcome = await withTaskGroup(of: Result<Response, UpstreamError>?.self) { group in
            group.addTask {
                do throws(UpstreamError) {
                    return .success(try await base.send(request))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: request.timeout)
                    return .failure(.timedOut)
                } catch {
                    return nil
                }
            }
            while let finished = await group.next() {
                if let finished {
                    group.cancelAll()
                    return finished
                }
            }
            return Result<Response, UpstreamError>.failure(.cancelled)
        }
        return try outcome.get()
    }

    public var enforcesTimeout: Bool { true }
}
