import Gateway

/// What `gateway --demo` serves, inside the calling process: the fixture upstreams and a gateway
/// pointed at them, both on 127.0.0.1 at free ports. Tools such as the benchmarks use it to
/// drive whole combined requests (server, handler, upstream calls, JSON) through real sockets
/// without starting another process.
///
/// ```swift
/// let demo = try DemoGateway(logDescriptor: devNull)
/// // GET http://127.0.0.1:\(demo.port)/v1/menu ...
/// await demo.stop()
/// ```
public struct DemoGateway: Sendable {
    private let upstreams: DemoUpstreams
    private let gateway: GatewayService
    private let serving: Task<Void, Never>

    /// The gateway's port on 127.0.0.1.
    public var port: Int { gateway.port }

    /// Starts the fixture upstreams, then a gateway with the default configuration (as an empty
    /// environment gives it) except that it listens on 127.0.0.1 at a free port and calls the
    /// fixtures; it serves until `stop()`.
    ///
    /// - Parameter logDescriptor: where the access log goes (one line per request, as in
    ///   production); it must stay open until `stop()` returns.
    /// - Throws: when a socket cannot be bound or the configuration is refused.
    public init(logDescriptor: Int32) throws {
        let upstreams = try DemoUpstreams()
        do {
            let environment = upstreams.environment.merging(["HOST": "127.0.0.1", "PORT": "0"]) { _, fixed in fixed }
            gateway = try GatewayService(catalog: .reference, environment: environment, logDescriptor: logDescriptor)
        } catch {
            upstreams.shutdown()
            throw error
        }
        self.upstreams = upstreams
        serving = Task { [gateway] in await gateway.run() }
    }

    /// Drains the gateway (idle connections close at once, requests in flight finish), then
    /// stops the fixture upstreams and flushes the log.
    public func stop() async {
        gateway.stop()
        await serving.value
        upstreams.shutdown()
    }
}
