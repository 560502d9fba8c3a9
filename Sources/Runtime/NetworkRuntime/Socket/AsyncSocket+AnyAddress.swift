extension AsyncSocket {
    /// Each address but the last gets at least this long, unless less time is left in all: long
    /// enough for a reachable host, short enough that a silent first address leaves time for the
    /// next (Go's dialer splits its deadline the same way).
    private static let minimumAttemptTime: Duration = .seconds(2)

    /// Connects to the first of `addresses` that accepts, moving on when one refuses, is
    /// unreachable or does not answer within its share of the time left; the pooled HTTP client
    /// and the Redis client both dial this way.
    package static func connect(
        toAnyOf addresses: [SocketAddress], on loop: EventLoop, deadline: ContinuousClock.Instant
    ) async throws(SocketError) -> AsyncSocket {
        var lastError = SocketError.timedOut
        for (index, address) in addresses.enumerated() {
            let now = ContinuousClock.now
            guard now < deadline else { throw .timedOut }
            let share = (deadline - now) / (addresses.count - index)
            let attemptDeadline = min(deadline, now.advanced(by: max(share, minimumAttemptTime)))
            do {
                return try await AsyncSocket.connect(to: address, on: loop, deadline: attemptDeadline)
            } catch {
                guard error != .cancelled else { throw error }
                lastError = error
            }
        }
        throw lastError
    }
}
