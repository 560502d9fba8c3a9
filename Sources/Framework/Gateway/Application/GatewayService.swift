public import Foundation
import HTTP1Server

/// A gateway that a team's own code starts, runs and stops: a service of its process (beside
/// others, or in a test), with the operations routes, metrics, access log, reload of the
/// endpoints file and draining shutdown of `gateway`. `GatewayCommand` is this plus the command
/// line and signals.
///
/// Making one reads and checks the configuration and binds the address, so a mistake is thrown
/// before anything serves, and `port` is known (with `settings.port = 0`, a free one):
///
/// ```swift
/// var settings = GatewaySettings()
/// settings.port = 0
/// let gateway = try GatewayService(catalog: catalog, settings: settings, environment: [:])
/// let serving = Task { await gateway.run() }
/// // http://127.0.0.1:\(gateway.port)/v1/forecast/oslo answers now
/// gateway.stop()
/// await serving.value
/// ```
public final class GatewayService: Sendable {
    /// The server, for the command's signal handling.
    let server: GatewayServer
    private let logOutput: LogOutput?

    /// Checks `catalog`, reads the configuration (`settings`, with `environment` over them, see
    /// `GatewaySettings`) as the command does, sets up the upstreams and binds. Log lines go to
    /// standard output.
    ///
    /// - Parameters:
    ///   - catalog: the gateway's upstreams, endpoints and proxy routes.
    ///   - settings: the configuration in code; the defaults where it says nothing.
    ///   - environment: the variables that override `settings`; by default the process's.
    ///     Pass `[:]` for a gateway configured in code alone.
    /// - Throws: the line the command would print for a catalog or configuration mistake (exit
    ///   status 2 there), or one naming an address that cannot be bound (exit status 1).
    public convenience init(
        catalog: GatewayCatalog, settings: GatewaySettings = GatewaySettings(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(GatewayStartupError) {
        try self.init(catalog: catalog, environment: settings.environment(overriddenBy: environment), logOutput: LogOutput())
    }

    /// The same, for the package's own users: `catalogSwitch` as the command applies it, and log
    /// lines to `logDescriptor` (none when nil), which must stay open until `run()` returns.
    package convenience init(
        catalog: GatewayCatalog, catalogSwitch: CatalogSwitch? = nil, environment: [String: String], logDescriptor: Int32?
    ) throws(GatewayStartupError) {
        try self.init(catalog: catalog, catalogSwitch: catalogSwitch, environment: environment, logOutput: logDescriptor.map { LogOutput(descriptor: $0) })
    }

    init(catalog: GatewayCatalog, catalogSwitch: CatalogSwitch? = nil, environment: [String: String], logOutput: LogOutput?) throws(GatewayStartupError) {
        do throws(GatewayStartupError) {
            server = try GatewayServer(catalog: catalog, catalogSwitch: catalogSwitch, environment: environment, logOutput: logOutput)
        } catch {
            logOutput?.close()
            throw error
        }
        self.logOutput = logOutput
    }

    /// The port it listens on (the one picked when the configured port is 0).
    public var port: Int { server.port }

    /// The gateway serving new requests now, for our own tests to look inside.
    package var gateway: Gateway { server.gateway }

    /// Serves until `stop()`: connects to Redis first when one is configured (waiting at most its
    /// connect timeout), then answers requests; once stopped, drains the requests in flight (up
    /// to the drain timeout), sends the spans still queued and flushes the log, then returns.
    public func run() async {
        await run(until: nil)
    }

    /// `run()`, with `signals` also starting the shutdown (the command's SIGTERM and SIGINT).
    func run(until signals: ShutdownSignalHandler?) async {
        await server.run(until: signals)
        logOutput?.close()
    }

    /// Starts the shutdown: readiness fails and the listener closes at once, requests in flight
    /// finish; `run()` returns when they have. Unlike SIGTERM to the command, there is no delay
    /// with readiness failing first: a caller that wants one waits before calling this.
    public func stop() {
        server.shutdown()
    }

    /// Re-reads the endpoints file and serves it from the next request on when it is good and new,
    /// as SIGHUP does; keeps the one serving when it is the same, or refused (one error line,
    /// counted in `/metrics`).
    ///
    /// - Returns: true when a changed file is served now; false when it was the same or refused.
    @discardableResult
    public func reload() -> Bool {
        server.served.reload() == .applied
    }
}
