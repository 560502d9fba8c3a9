extension ConfigurationVariable {
    static let endpointsFile = ConfigurationVariable(
        "GATEWAY_ENDPOINTS_FILE", default: "", "JSON file of upstreams and combined endpoints to serve (docs/ENDPOINTS-FILE.md)")
}
