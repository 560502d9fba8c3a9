import HTTPServerCore

/// A gateway on a socket: binds at once (so the port is known), serves until shutdown, and
/// fails readiness before it starts draining on SIGTERM or SIGINT.
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
                tls: configuration.tls),
            responder: gateway.responder)
        gateway.status.attach(server.metrics)
        self.gateway = gateway
    }

    var port: Int { server.port }

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
