public import NetworkRuntime
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
    /// Set by the first `shutdown()`: accepting ends.
    private let isStopping = Atomic<Bool>(false)
    private let drainLog: (@Sendable (DrainStep) -> Void)?
    /// Sent to connections refused at a cap before closing them.
    private let overCapacityResponse: [UInt8]

    /// Binds and listens at once, so `port` is known before `run()`.
    ///
    /// - Parameters:
    ///   - rejectionLog: called after each refusal of a request no responder saw, on the
    ///     connection's thread; a flood of bad requests calls it as often, so limit what it writes.
    ///   - drainLog: called at each step of the draining shutdown, with its counts.
    public init(
        configuration: ServerConfiguration = ServerConfiguration(),
        responder: some HTTPResponder,
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
            sharesPort: configuration.sharesPort,
            on: loops[0]
        )
        port = listener.port
        context = ConnectionContext(
            responder: responder, configuration: configuration, rejectionLog: rejectionLog, metrics: metrics)
        overCapacityResponse = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 1\r\n".utf8)
            + context.commonFields + Array("\r\n".utf8)
    }

    /// Serves until `shutdown()`, then waits for in-flight requests (up to the grace period)
    /// and returns once every connection is closed; after a `shutdown()` that came first, it
    /// closes the listener and returns.
    public func run() async {
        let started = acceptTask.withLock { task -> Task<Void, Never>? in
            guard task == nil else { return nil }
            let accepting = Task(executorPreference: loops[0]) { await self.acceptConnections() }
            // A shutdown that came first finds no task to cancel: this one ends at once instead.
            if isStopping.load(ordering: .sequentiallyConsistent) { accepting.cancel() }
            task = accepting
            return accepting
        }
        // Only the first call serves; a second one returns at once.
        guard let started else { return }
        await started.value
        // Closing the listener resets the connections in its queue: those are served instead, so
        // that a process beside this one on the same port (SO_REUSEPORT) takes over without a
        // client seeing a reset. Only then do answers say `Connection: close`: a client that
        // reconnects must find the other process's listener, not this one's about to close. At
        // most a queue's worth, so that clients still connecting cannot keep it open.
        for index in 0..<max(0, Int(configuration.backlog)) {
            guard let socket = listener.acceptQueued(registeringOn: loops[index % loops.count]) else { break }
            await serve(socket)
        }
        listener.close()
        context.beginDraining()
        registry.beginDraining()
        let inFlight = metrics.inFlightRequests
        drainLog?(.draining(inFlight: inFlight, connections: metrics.openConnections))
        let (gracePeriod, window) = (configuration.shutdownGracePeriod, configuration.timeouts.lastRequest)
        let (registry, metrics, context) = (registry, metrics, context)
        // A client may have sent a request on a kept-alive connection as the drain began: it is
        // answered (with `Connection: close`) if it arrives within the window, after which the
        // connections still idle are closed.
        let closingIdle = Task {
            try? await Task.sleep(for: window)
            context.beginClosingIdle()
            registry.drain()
        }
        defer { closingIdle.cancel() }
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

    /// Starts a graceful shutdown: stop accepting (serving the connections already queued) and
    /// close the listener, then let requests in flight finish and answer one last request per
    /// idle connection within `timeouts.lastRequest` (their responses say `Connection: close`),
    /// and close the connections left idle. `run()` returns when done. Only the first call does anything.
    public func shutdown() {
        guard !isStopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let task = acceptTask.withLock { $0 }
        task?.cancel()
        // Without a window for a last request, idle connections are claimed now, before any
        // of them can begin another request.
        if configuration.timeouts.lastRequest == .zero {
            context.beginDraining()
            context.beginClosingIdle()
            registry.drain()
        }
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
        while !Task.isCancelled && !isStopping.load(ordering: .sequentiallyConsistent) {
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
            guard await serve(socket) else { return }
        }
    }

    /// Runs a connection for `socket` within the caps, or answers 503 when a cap refuses it;
    /// false when the registry no longer takes connections.
    @discardableResult
    private func serve(_ socket: AsyncSocket) async -> Bool {
        let context = context
        let metrics = metrics
        // Counted first, so that a connection ending at once cannot make the count dip below zero.
        metrics.openConnection()
        let (admission, reclaimed) = registry.start(on: socket.loop, client: clientKey(of: socket.peerIP), within: limits) { phase in
            await HTTPConnection(socket: socket, context: context, phase: phase).run()
            metrics.closeConnection()
        }
        switch admission {
        case .started(let task, let phase):
            if reclaimed { metrics.reclaimConnection() }
            // A client that goes away cancels its connection task, and with it the handler's
            // upstream calls; after a protocol switch, its FIN may be a half-close the new protocol reads.
            socket.whenPeerCloses { if !phase.hasSwitchedProtocols { task.cancel() } }
            return true
        case .refused:
            metrics.closeConnection()
            metrics.refuseConnection()
            // Over TLS, answering would first cost a handshake: the connection is just closed.
            if configuration.tls == nil { try? await socket.write(overCapacityResponse, deadline: .now) }
            socket.close()
            return true
        case .draining:
            metrics.closeConnection()
            socket.close()
            return false
        }
    }
}
