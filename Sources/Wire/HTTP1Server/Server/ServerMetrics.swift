import Synchronization

/// Live counters of a server, cheap to update on every request and safe to read from anywhere.
public final class ServerMetrics: Sendable {
    private let connections = Atomic<Int>(0)
    private let requestsInFlight = Atomic<Int>(0)
    private let requestsAnswered = Atomic<Int>(0)
    private let connectionsRefused = Atomic<Int>(0)
    private let connectionsReclaimed = Atomic<Int>(0)
    private let requestsRejected = Atomic<Int>(0)
    private let cutting = Atomic<Bool>(false)

    init() {}

    /// Connections currently open.
    public var openConnections: Int { connections.load(ordering: .relaxed) }
    /// Requests whose handler is running or whose response is being written.
    public var inFlightRequests: Int { requestsInFlight.load(ordering: .relaxed) }
    /// Responses written since start.
    public var totalRequests: Int { requestsAnswered.load(ordering: .relaxed) }
    /// Connections turned away because `maximumConnections`, or their client's
    /// `maximumConnectionsPerClient`, were open and none of them was kept alive.
    public var refusedConnections: Int { connectionsRefused.load(ordering: .relaxed) }
    /// Kept-alive connections closed to make room for a new one at a cap.
    public var reclaimedConnections: Int { connectionsReclaimed.load(ordering: .relaxed) }
    /// Requests refused before a responder saw them (malformed, too large, unsupported version).
    public var rejectedRequests: Int { requestsRejected.load(ordering: .relaxed) }
    /// Whether the drain's grace period ran out and requests still in flight are being cancelled,
    /// so a handler cancelled now was cut by the server, not left by its client.
    public var isCuttingRequests: Bool { cutting.load(ordering: .relaxed) }

    func beginCutting() { cutting.store(true, ordering: .relaxed) }

    func openConnection() { connections.add(1, ordering: .relaxed) }
    func refuseConnection() { connectionsRefused.add(1, ordering: .relaxed) }
    func reclaimConnection() { connectionsReclaimed.add(1, ordering: .relaxed) }
    func closeConnection() { connections.subtract(1, ordering: .relaxed) }
    func requestRejected() { requestsRejected.add(1, ordering: .relaxed) }
    func requestStarted() { requestsInFlight.add(1, ordering: .relaxed) }

    func requestFinished() {
        requestsInFlight.subtract(1, ordering: .relaxed)
        requestsAnswered.add(1, ordering: .relaxed)
    }
}
