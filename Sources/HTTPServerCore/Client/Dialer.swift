/// Opens the TCP connections of `HTTPClient`: resolves the host off the loop and tries its
/// addresses in turn.
struct Dialer: Sendable {
    let resolver: NameResolver

    /// Each address but the last gets at least this long, unless less time is left in all: long
    /// enough for a reachable host, short enough that a silent first address leaves time for the
    /// next (Go's dialer splits its deadline the same way).
    private static let minimumAttemptTime: Duration = .seconds(2)

    /// A socket connected to `host`, all before `deadline`.
    func openSocket(to host: String, port: Int, on loop: EventLoop, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> AsyncSocket {
        do {
            let addresses = try await resolver.addresses(of: host, port: port, on: loop, deadline: deadline)
            return try await Self.connect(toAnyOf: addresses, on: loop, deadline: deadline)
        } catch {
            switch error {
            case .closed: throw .connectionFailed(reason: "connection refused")
            default: throw ClientConnection.clientError(error)
            }
        }
    }

    /// Connects to the first of `addresses` that accepts, moving on when one refuses, is
    /// unreachable or does not answer within its share of the time left.
    private static func connect(toAnyOf addresses: [SocketAddress], on loop: EventLoop, deadline: ContinuousClock.Instant) async throws(SocketError) -> AsyncSocket {
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
