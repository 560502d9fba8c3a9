extension GatewayServer {
    /// A server for `catalog` configured from `environment`: the catalog is checked first, then the
    /// configuration read, the upstreams set up, and the address bound, each failure one line.
    init(catalog: GatewayCatalog, environment: [String: String], logOutput: LogOutput?) throws(GatewayStartupError) {
        let configuration = try GatewayConfiguration(checking: catalog, environment: environment)
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

extension GatewayConfiguration {
    /// Checks `catalog`, then reads the configuration of it from `environment`, as start-up does.
    init(checking catalog: GatewayCatalog, environment: [String: String]) throws(GatewayStartupError) {
        if let problem = GatewayStartupError.checking(catalog) { throw problem }
        do {
            try self.init(environment: environment, upstreams: catalog.upstreams, onOffer: catalog.upstreamsOnOffer)
        } catch {
            throw .configuration(error.description)
        }
    }
}
