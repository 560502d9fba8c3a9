import NetworkRuntime
import Synchronization

/// An HTTP/1.1 server on the event loops: one task per connection, each answering its requests
/// in order through an `HTTPResponder`.
///
/// ```swift
/// let server = try HTTPServer(configuration: ServerConfiguration(port: 8080), responder: router)
/// let signals = ShutdownSignalHandler(server: server)
/// try await server.run()
/// ```
public final class HTTPServer: Sendable {
    /// How long accepting pauses after a transient failure such as running out of descriptors.
    private static let acceptBackoff = Duration.milliseconds(10)

    /// The bound port; the real one when the configuration asked for port 0.
    public let port: Int
    /// The configuration the server was created with.
    public let configuration: ServerConfiguration
    /// Open connections, in-flight requests and other counters for `/metrics`.
    public let metrics = ServerMetrics()

    private let listener: ListeningSocket
    private let loops: [EventLoop]
    private let context: ConnectionContext
    private let registry = ConnectionRegistry()
    private let limits: ConnectionRegistry.Limits
    private let acceptTask = Mutex<Task<Void, Never>?>(nil)
    private let drainLog: (@Sendable (DrainStep) -> Void)?
    /// Sent to connections refused at a cap before closing them.
    private let overCapacityResponse: [UInt8]

    /// Binds and listens at once, so `port` is known before `run()`.
    ///
    /// - Parameters:
    ///   - accessLog: called after each response is written, on the connection's thread; keep it cheap.
    ///   - rejectionLog: called after each refusal of a request no responder saw, on the
    ///     connection's thread; a flood of bad requests calls it as often, so limit what it writes.
    ///   - drainLog: called at each step of the draining shutdown, with its counts.
    public init(
        configuration: ServerConfiguration = ServerConfiguration(),
        responder: some HTTPResponder,
        accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil,
        rejectionLog: (@Sendable (RejectedRequest) -> Void)? = nil,
        drainLog: (@Sendable (DrainStep) -> Void)? = nil
    ) throws(SocketError) {
        self.configuration = configuration
        self.drainLog = drainLog
        limits = ConnectionRegistry.Limits(
            maximumConnections: configuration.maximumConnections, maximumPerClient: configuration.maximumConnectionsPerClient)
        loops = EventLoop.shared(count: configuration.eventLoopCount)
        listener = try ListeningSocket(
            address: SocketAddress(host: configuration.host, port: configuration.port),
            backlog: configuration.backlog,
            on: loops[0]
        )
        port = listener.port
        context = ConnectionContext(
            responder: responder, configuration: configuration, accessLog: accessLog, rejectionLog: rejectionLog, metrics: metrics)
        overCapacityResponse = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 1\r\n".utf8)
            + context.commonFields + Array("\r\n".utf8)
    }

    /// Serves until `shutdown()`, then waits for in-flight requests (up to the grace period)
    /// and returns once every connection is closed.
    public func run() async {
        let started = acceptTask.withLock { task -> Task<Void, Never>? in
            guard task == nil else { return nil }
            task = Task(executorPreference: loops[0]) { await self.acceptConnections() }
            return task
        }
        // Only the first call serves; a second one returns at once.
        guard let started else { return }
        await started.value
        listener.close()
        registry.drain()
        let inFlight = metrics.inFlightRequests
        drainLog?(.draining(inFlight: inFlight, connections: metrics.openConnections))
        let gracePeriod = configuration.shutdownGracePeriod
        let (registry, metrics) = (registry, metrics)
        let cut = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await registry.waitUntilEmpty()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: gracePeriod)
                return false
            }
            var cut = 0
            if await group.next() == false {
                cut = metrics.inFlightRequests
                metrics.beginCutting()
            }
            registry.cancelAll()
            group.cancelAll()
            return cut
        }
        drainLog?(.finished(drained: max(0, inFlight - cut), cut: cut))
    }

    /// Starts a graceful shutdown: stop accepting, close idle connections, let requests in
    /// flight finish (their responses say `Connection: close`). `run()` returns when done.
    /// Only the first call does anything.
    public func shutdown() {
        guard context.beginDraining() else { return }
        let task = acceptTask.withLock { $0 }
        task?.cancel()
        registry.drain()
    }

    /// The client a connection from `peer` counts against: nil when clients are not capped, the
    /// peer is unknown or is a front proxy.
    private func clientKey(of peer: IPAddress?) -> IPAddress? {
        guard limits.maximumPerClient != nil, let peer, !configuration.frontProxies.contains(where: { $0.contains(peer) }) else {
            return nil
        }
        return peer.clientNetwork
    }

    private func acceptConnections() async {
        var nextLoop = 0
        while !Task.isCancelled && !context.isDraining {
            let socket: AsyncSocket
            do {
                socket = try await listener.accept(registeringOn: loops[nextLoop])
            } catch {
                switch error {
                case .closed, .cancelled: return
                default: try? await Task.sleep(for: Self.acceptBackoff)
                }
                continue
            }
            nextLoop = (nextLoop + 1) % loops.count
            let context = context
            let metrics = metrics
            // Counted first, so that a connection ending at once cannot make the count dip below zero.
            metrics.openConnection()
            let (admission, reclaimed) = registry.start(on: socket.loop, client: clientKey(of: socket.peerIP), within: limits) { phase in
                await HTTPConnection(socket: socket, context: context, phase: phase).run()
                metrics.closeConnection()
            }
            let task: Task<Void, Never>
            switch admission {
            case .started(let started):
                if reclaimed { metrics.reclaimConnection() }
                task = started
            case .refused:
                metrics.closeConnection()
                metrics.refuseConnection()
                // Over TLS, answering would first cost a handshake: the connection is just closed.
                if configuration.tls == nil { try? await socket.write(overCapacityResponse, deadline: .now) }
                socket.close()
                continue
            case .draining:
                metrics.closeConnection()
                socket.close()
                return
            }
            // A client that goes away cancels its connection task, and with it the handler's upstream calls.
            socket.whenPeerCloses { task.cancel() }
        }
    }
}
