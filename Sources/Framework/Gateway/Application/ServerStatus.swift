import HTTP1Server
import Synchronization

/// What operations endpoints need to know about the server that runs the gateway: whether it
/// listens, whether shutdown has begun, and its live connection counters.
///
/// The server is created after the routes that report on it, so it is attached later.
final class ServerStatus: Sendable {
    private let server = Mutex<ServerMetrics?>(nil)
    private let shuttingDown = Atomic<Bool>(false)

    /// Records that the server is listening and where its counters are.
    func attach(_ metrics: ServerMetrics) {
        server.withLock { $0 = metrics }
    }

    /// Makes readiness fail from now on; called first thing on SIGTERM.
    func beginShutdown() {
        shuttingDown.store(true, ordering: .relaxed)
    }

    var isListening: Bool { server.withLock { $0 != nil } }
    var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    var openConnections: Int { server.withLock { $0?.openConnections ?? 0 } }
    var inFlightRequests: Int { server.withLock { $0?.inFlightRequests ?? 0 } }
    var rejectedRequests: Int { server.withLock { $0?.rejectedRequests ?? 0 } }
    var refusedConnections: Int { server.withLock { $0?.refusedConnections ?? 0 } }
    var reclaimedConnections: Int { server.withLock { $0?.reclaimedConnections ?? 0 } }
    /// Whether the drain timeout ran out and the requests still in flight are being cancelled.
    var isCuttingRequests: Bool { server.withLock { $0?.isCuttingRequests ?? false } }
}
