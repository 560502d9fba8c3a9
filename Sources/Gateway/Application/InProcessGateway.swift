/// A gateway serving a catalog inside the calling process, as `GatewayCommand` serves it but
/// without signals. For the package's own modules (`GatewayTesting`'s `GatewayUnderTest`, the
/// reference scenario's `DemoGateway` that the benchmarks drive), not a team's: its tests use
/// `GatewayUnderTest`.
///
/// ```swift
/// let gateway = try InProcessGateway(catalog: catalog, environment: ["HOST": "127.0.0.1", "PORT": "0", "UPSTREAM_WEATHER_URL": stub])
/// // GET http://127.0.0.1:\(gateway.port)/v1/forecast/oslo ...
/// await gateway.stop()
/// ```
package final class InProcessGateway: Sendable {
    private let server: GatewayServer
    private let logOutput: LogOutput?
    private let serving: Task<Void, Never>

    /// The port it listens on (the one picked when `PORT` is 0).
    package var port: Int { server.port }

    /// The gateway it serves, for our own tests to look inside (its upstreams, status and routes).
    package var gateway: Gateway { server.gateway }

    /// Checks the catalog, reads the configuration from `environment` exactly as the command
    /// does, binds, and serves until `stop()`.
    ///
    /// - Parameter logDescriptor: where access and event log lines go; none are written when nil.
    ///   It must stay open until `stop()` returns.
    /// - Throws: the error the command would print, for a catalog or configuration mistake or an
    ///   address that cannot be bound.
    package init(catalog: GatewayCatalog, environment: [String: String], logDescriptor: Int32? = nil) throws(GatewayStartupError) {
        let logOutput = logDescriptor.map { LogOutput(descriptor: $0) }
        do throws(GatewayStartupError) {
            server = try GatewayServer(catalog: catalog, environment: environment, logOutput: logOutput)
        } catch {
            logOutput?.close()
            throw error
        }
        self.logOutput = logOutput
        let gatewayServer = server
        serving = Task { await gatewayServer.serve() }
    }

    /// Drains the gateway (idle connections close at once, requests in flight finish), then
    /// flushes the log.
    package func stop() async {
        server.shutdown()
        await serving.value
        logOutput?.close()
    }
}
