import UpstreamKit

extension GatewayServer {
    /// A server for `catalog` (with the endpoints file `environment` names, as `catalogSwitch`
    /// leaves it) configured from `environment`: the catalog is checked first, then the
    /// configuration read, the upstreams set up, and the address bound, each failure one line.
    /// A reload reads the same again.
    init(
        catalog: GatewayCatalog, catalogSwitch: CatalogSwitch? = nil, environment: [String: String], logOutput: LogOutput?
    ) throws(GatewayStartupError) {
        let source = ConfigurationSource(catalog: catalog, catalogSwitch: catalogSwitch, environment: environment)
        let reading = try source.read()
        let gateway = try Gateway(reading: reading, logOutput: logOutput)
        do {
            try self.init(served: ServedGateway(gateway, reading: reading, source: source, logOutput: logOutput))
        } catch {
            let configuration = reading.configuration
            throw GatewayStartupError("gateway: cannot listen on \(configuration.host):\(configuration.port): \(error)", exitStatus: 1)
        }
    }
}

extension Gateway {
    /// The gateway of `reading`, its upstreams set up (those `previous` runs and `reading`
    /// defines alike taken over, on a reload) on the pooled client, or on `transport` when given.
    init(
        reading: ConfigurationSource.Reading, logOutput: LogOutput?, reloading previous: Gateway? = nil,
        transport: ((UpstreamConfiguration) -> any Transport)? = nil
    ) throws(GatewayStartupError) {
        do {
            try self.init(
                configuration: reading.configuration, catalog: reading.catalog, logOutput: logOutput,
                transport: transport ?? UpstreamTransports(for: reading.configuration).make, reloading: previous)
        } catch {
            // The configuration loader validates tokens and headers, so this is a safety net; the
            // reason is a fixed phrase, never the value.
            throw .configuration("configuration error: an upstream's token or headers cannot be sent (\(error))")
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
