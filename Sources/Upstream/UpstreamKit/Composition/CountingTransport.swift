import Synchronization

/// Counts the attempts that pass through it, by outcome, for metrics and tests.
public final class CountingTransport: Transport {
    /// A snapshot of the counts.
    public struct Counts: Sendable, Equatable {
        public var attempts = 0
        /// Responses with a 2xx status.
        public var successes = 0
        /// Responses with any other status.
        public var failureStatuses = 0
        /// Attempts that ended in an error instead of a response.
        public var errors = 0
    }

    private let base: any Transport
    private let state = Mutex(Counts())

    public init(wrapping base: any Transport) {
        self.base = base
    }

    public var counts: Counts { state.withLock { $0 } }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        state.withLock { $0.attempts += 1 }
        do {
            let response = try await base.send(request)
            state.withLock { counts in
                if response.status.isSuccess { counts.successes += 1 } else { counts.failureStatuses += 1 }
            }
            return response
        } catch {
            state.withLock { $0.errors += 1 }
            throw error
        }
    }
}
