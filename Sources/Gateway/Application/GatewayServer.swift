import Foundation
import HTTPServerCore

/// A gateway on a socket: binds at once (so the port is known), serves until shutdown, and
/// fails readiness before it starts draining on SIGTERM or SIGINT.
struct GatewayServer: Sendable {
    let gateway: Gateway
    let server: HTTPServer

    init(gateway: Gateway) throws(SocketError) {
        let configuration = gateway.configuration
        // One loop per core: a combined request costs 100-250 µs of CPU, so one loop thread
        // saturates first. Measured on 2 cores with wrk and the simulator on the same machine,
        // 2 loops against 1: /v1/people/1 3,369 vs 2,748 req/s at 203 vs 268 µs CPU per
        // request, /v1/menu 7,956 vs 6,229 at 104 vs 119; only a trivial route (/healthz,
        // ~15 µs) is sometimes faster on one loop, which the gateway is not built for.
        server = try HTTPServer(
            configuration: ServerConfiguration(
                host: configuration.host,
                port: configuration.port,
                maximumConnections: configuration.maximumConnections,
                shutdownGracePeriod: configuration.drainTimeout,
                eventLoopCount: Self.eventLoopCount),
            responder: gateway.responder)
        gateway.status.attach(server.metrics)
        self.gateway = gateway
    }

    var port: Int { server.port }

    /// One event loop per core (see `init`); upstream connection pools are kept per loop.
    static let eventLoopCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Serves until SIGTERM or SIGINT (or `shutdown()`), then drains and returns; throws only
    /// when the signals cannot be caught (no descriptor or thread left), before serving.
    func runUntilSignalled() async throws(SocketError) {
        let status = gateway.status
        let signals = try ShutdownSignalHandler(server: server, beforeShutdown: { status.beginShutdown() })
        await server.run()
        signals.cancel()
    }

    /// Fails readiness, then drains in-flight requests.
    func shutdown() {
        gateway.status.beginShutdown()
        server.shutdown()
    }
}
