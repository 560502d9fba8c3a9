import Glibc
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import RedisClient

/// A gateway on a socket: binds at once (so the port is known), serves until shutdown, and on
/// SIGTERM or SIGINT fails readiness, keeps serving for the shutdown delay, then drains. SIGHUP
/// reloads its configuration (`ServedGateway.reload()`).
struct GatewayServer: Sendable {
    let served: ServedGateway
    let server: HTTPServer

    /// Binds for `served`; what a reload cannot change (address, TLS, limits, logs) is read from
    /// the gateway it serves first.
    init(served: ServedGateway) throws(SocketError) {
        let gateway = served.gateway
        let configuration = gateway.configuration
        server = try HTTPServer(
            configuration: ServerConfiguration(
                host: configuration.host,
                port: configuration.port,
                maximumConnections: configuration.maximumConnections,
                // A trusted proxy's connections carry many clients: its own per-client limits hold them.
                maximumConnectionsPerClient: configuration.maximumConnectionsPerClient,
                frontProxies: configuration.rateLimits.trustedProxies.ranges,
                shutdownGracePeriod: configuration.drainTimeout,
                eventLoopCount: configuration.eventLoopCount,
                commonResponseFields: Self.commonResponseFields,
                tls: configuration.tls,
                sharesPort: configuration.sharesPort),
            responder: served,
            rejectionLog: { [rejectedRequests = gateway.rejectedRequests] in rejectedRequests.record($0) },
            drainLog: { [events = gateway.events] step in events.log(.info, Self.describe(step, drainTimeout: configuration.drainTimeout)) })
        gateway.status.attach(server.metrics)
        self.served = served
    }

    /// The gateway serving new requests now.
    var gateway: Gateway { served.gateway }

    /// On every answer, refusals and proxied answers included: a browser must not guess a type
    /// other than the declared one, which could run an upstream's or a client's bytes as script.
    static let commonResponseFields: HTTPHeaders = ["X-Content-Type-Options": "nosniff"]

    var port: Int { server.port }

    /// Connects to Redis when configured (waiting at most its connect timeout), serves until
    /// `signals` start the shutdown (or `shutdown()` does), then drains and returns. The handler
    /// is made before the gateway says it listens, so that no signal finds the default action.
    func run(until signals: ShutdownSignalHandler?) async {
        // Once, before serving, so that the first requests already share; bounded by the
        // connect timeout, after which the gateway serves without Redis until it answers.
        if let redis = gateway.redis, await redis.client.connect() { await redis.checkMemoryPolicy() }
        await serve()
        signals?.cancel()
        gateway.rejectedRequests.writeSummary()
        gateway.events.log(.info, "shutdown: complete; exiting")
    }

    /// Serves until the server shuts down and has drained, exporting spans meanwhile when
    /// tracing is on, then sends the spans still queued within the export's timeout.
    func serve() async {
        guard let exporter = gateway.spanExporter else { return await server.run() }
        let exporting = Task { await exporter.run() }
        await server.run()
        // An export in flight ends within its timeout; one waiting to be retried is given up.
        exporter.stop()
        await exporting.value
        await exporter.flush(until: .now.advanced(by: exporter.configuration.timeout))
    }

    /// The log line of one step of the drain.
    static func describe(_ step: DrainStep, drainTimeout: Duration) -> String {
        switch step {
        case .draining(let inFlight, let connections):
            "shutdown: listener closed; draining for at most \(drainTimeout.milliseconds) ms; in flight: \(inFlight), connections: \(connections)"
        case .finished(let drained, let cut):
            "shutdown: drain over; drained: \(drained), cut at the drain timeout: \(cut)"
        }
    }

    /// Catches `signals` (none: only `requestShutdown()` of the handler) to fail readiness at
    /// once, wait the configured shutdown delay (or for the next signal), then drain; and
    /// `reloadSignals` (none: only `requestReload()`) to reload.
    func handleSignals(_ signals: [Int32] = [SIGTERM, SIGINT], reloadSignals: [Int32] = [SIGHUP]) throws(SocketError) -> ShutdownSignalHandler {
        let (status, events, delay, served) = (gateway.status, gateway.events, gateway.configuration.shutdownDelay, served)
        return try ShutdownSignalHandler(
            server: server, signals: signals, delay: delay,
            beforeShutdown: {
                status.beginShutdown()
                events.log(
                    .info,
                    "shutdown: signal received; /readyz fails while requests are still served for \(delay.milliseconds) ms "
                        + "(a second signal ends that); in flight: \(status.inFlightRequests)")
            },
            reloadSignals: reloadSignals, reload: { served.reload() })
    }

    /// Fails readiness, then drains in-flight requests.
    func shutdown() {
        gateway.status.beginShutdown()
        server.shutdown()
    }
}
