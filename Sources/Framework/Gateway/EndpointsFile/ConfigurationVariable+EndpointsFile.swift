extension ConfigurationVariable {
    static let endpointsFile = ConfigurationVariable(
        "GATEWAY_ENDPOINTS_FILE", default: "", "JSON file of upstreams, combined endpoints and proxy routes to serve (docs/ENDPOINTS-FILE.md)")
}
