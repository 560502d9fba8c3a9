/// An on/off variable with which an operator turns a catalog's endpoints and proxy routes off,
/// such as the examples an executable ships, to serve the endpoints file's alone.
///
/// Off, the catalog's upstreams stay available to the file: only those its endpoints and proxy
/// routes use are set up (in readiness, metrics and the upstream variables), and the others'
/// `UPSTREAM_{NAME}_*` variables are accepted and ignored.
///
/// ```swift
/// let examples = CatalogSwitch(variable: "GATEWAY_EXAMPLE_ENDPOINTS", summary: "off: serve the endpoints file's endpoints alone")
/// GatewayCommand.main(catalog: catalog, catalogSwitch: examples)
/// ```
public struct CatalogSwitch: Sendable {
    /// The variable's name; `on` (the default) or `off`.
    public let variable: String
    /// One line for `--help`.
    public let summary: String

    /// A switch read from `variable`, described in `--help` by `summary`.
    public init(variable: String, summary: String) {
        self.variable = variable
        self.summary = summary
    }

    var configurationVariable: ConfigurationVariable {
        ConfigurationVariable(variable, default: "on", summary)
    }

    /// `catalog` as the environment's value of the switch leaves it.
    func apply(to catalog: GatewayCatalog, environment: [String: String]) throws(ConfigurationError) -> GatewayCatalog {
        let reader = EnvironmentReader(environment: environment)
        guard try reader.choice(configurationVariable, from: ["on", "off"]) == "off" else { return catalog }
        return GatewayCatalog(upstreams: [], endpoints: [], upstreamsOnOffer: catalog.upstreams + catalog.upstreamsOnOffer)
    }
}
