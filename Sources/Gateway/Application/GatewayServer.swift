import Glibc
import HTTPBasics
import HTTPServerCore
import NetworkRuntime

/// A gateway on a socket: binds at once (so the port is known), serves until shutdown, and on
/// SIGTERM or SIGINT fails readiness, keeps serving for the shutdown delay, then drains.
struct GatewayServer: Sendable {
    let gateway: Gateway
    let server: HTTPServer

    init(gateway: Gateway) throws(SocketError) {
        let configuration = gateway.configuration
        server = try HTTPServer(
            configuration: ServerConfiguration(
                host: configuration.host,
                port: configuration.port,
                maximumConnections: configuration.maximumConnections,
                shutdownGracePeriod: configuration.drainTimeout,
                eventLoopCount: configuration.eventLoopCount,
                commonResponseFields: Self.commonResponseFields,
                tls: configuration.tls),
            responder: gateway.responder,
            rejectionLog: { [rejectedRequests = gateway.rejectedRequests] in rejectedRequests.record($0) },
            drainLog: { [events = gateway.events] step in events.log(.info, Self.describe(step, drainTimeout: configuration.drainTimeout)) })
        gateway.status.attach(server.metrics)
        self.gateway = gateway
    }

    /// On every answer, refusals and proxied answers included: a browser must not guess a type
    /// other than the declared one, which could run an upstream's or a client's bytes as script.
    static let commonResponseFields: HTTPHeaders = ["X-Content-Type-Options": "nosniff"]

    var port: Int { server.port }

    /// Connects to Redis when configured (waiting at most its connect timeout), serves until
    /// SIGTERM or SIGINT (or `shutdown()`), then drains and returns; throws only
    /// when the signals cannot be caught (no descriptor or thread left), before serving.
    func runUntilSignalled() async throws(SocketError) {
        let signals = try handleSignals()
        // Once, before serving, so that the first requests already share; bounded by the
        // connect timeout, after which the gateway serves without Redis until it answers.
        // At most the connect timeout; without Redis the gateway serves alone until it answers.
        if let redis = gateway.redis, await redis.client.connect() { await redis.checkMemoryPolicy() }
        await server.run()
        signals.cancel()
        gateway.rejectedRequests.writeSummary()
        gateway.events.log(.info, "shutdown: complete; exiting")
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
    /// once, wait the configured shutdown delay (or for the next signal), then drain.
    func handleSignals(_ signals: [Int32] = [SIGTERM, SIGINT]) throws(SocketError) -> ShutdownSignalHandler {
        let (status, events, delay) = (gateway.status, gateway.events, gateway.configuration.shutdownDelay)
        return try ShutdownSignalHandler(
            server: server, signals: signals, delay: delay,
            beforeShutdown: {
                status.beginShutdown()
                events.log(
                    .info,
                    "shutdown: signal received; /readyz fails while requests are still served for \(delay.milliseconds) ms "
                        + "(a second signal ends that); in flight: \(status.inFlightRequests)")
            })
    }

    /// Fails readiness, then drains in-flight requests.
    func shutdown() {
        gateway.status.beginShutdown()
        server.shutdown()
    }
}
