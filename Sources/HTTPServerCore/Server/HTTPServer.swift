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
    private let acceptTask = Mutex<Task<Void, Never>?>(nil)
    private let drainLog: (@Sendable (DrainStep) -> Void)?
    /// Sent to connections beyond `maximumConnections` before closing them.
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
            guard metrics.openConnection(limit: configuration.maximumConnections) else {
                // Over TLS, answering would first cost a handshake: the connection is just closed.
                if configuration.tls == nil { try? await socket.write(overCapacityResponse, deadline: .now) }
                socket.close()
                continue
            }
            let context = context
            let metrics = metrics
            let started = registry.start(on: socket.loop) { phase in
                await HTTPConnection(socket: socket, context: context, phase: phase).run()
                metrics.closeConnection()
            }
            guard let (task, phase) = started else {
                socket.close()
                metrics.closeConnection()
                return
            }
            // A client that goes away cancels its connection task, and with it the handler's
            // upstream calls; after a protocol switch, its FIN may be a half-close the new protocol reads.
            socket.whenPeerCloses { if !phase.hasSwitchedProtocols { task.cancel() } }
        }
    }
}
