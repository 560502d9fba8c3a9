/// Where a gateway's configuration comes from: the catalog in code, the switch that may turn its
/// routes off, the process's environment, and the endpoints file that environment names. Read
/// at start-up, by `--check`, and again by every reload, each time with the same checks.
struct ConfigurationSource: Sendable {
    let catalog: GatewayCatalog
    let catalogSwitch: CatalogSwitch?
    let environment: [String: String]

    /// One reading: the catalog served, its configuration, and the endpoints file's bytes (nil
    /// without a file), by which a reload tells an unchanged file.
    struct Reading: Sendable {
        let catalog: GatewayCatalog
        let configuration: GatewayConfiguration
        let fileContents: [UInt8]?
        /// The names of the upstreams the endpoints file defines.
        let fileUpstreams: [String]
    }

    /// Reads the file, builds the catalog and reads its configuration, as `--check` does.
    func read() throws(GatewayStartupError) -> Reading {
        let loaded = try GatewayCommand.catalog(catalog, switch: catalogSwitch, environment: environment)
        let configuration = try GatewayConfiguration(checking: loaded.catalog, environment: environment)
        return Reading(catalog: loaded.catalog, configuration: configuration, fileContents: loaded.file?.contents,
            fileUpstreams: loaded.file?.upstreams.map(\.name) ?? [])
    }
}
