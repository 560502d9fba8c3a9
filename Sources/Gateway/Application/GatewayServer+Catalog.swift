extension GatewayServer {
    /// A server for `catalog` configured from `environment`: the catalog is checked first, then the
    /// configuration read, the upstreams set up, and the address bound, each failure one line.
    init(catalog: GatewayCatalog, environment: [String: String], logOutput: LogOutput?) throws(GatewayStartupError) {
        if let problem = GatewayStartupError.checking(catalog) { throw problem }
        let configuration: GatewayConfiguration
        do {
            configuration = try GatewayConfiguration(environment: environment, upstreams: catalog.upstreams)
        } catch {
            throw .configuration(error.description)
        }
        let gateway: Gateway
        do {
            gateway = try Gateway(
                configuration: configuration, catalog: catalog, logOutput: logOutput, transport: UpstreamTransports(for: configuration).make)
        } catch {
            // The configuration loader validates tokens and headers, so this is a safety net; the
            // reason is a fixed phrase, never the value.
            throw .configuration("configuration error: an upstream's token or headers cannot be sent (\(error))")
        }
        do {
            try self.init(gateway: gateway)
        } catch {
            throw GatewayStartupError("gateway: cannot listen on \(configuration.host):\(configuration.port): \(error)", exitStatus: 1)
        }
    }
}
