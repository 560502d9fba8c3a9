/// What `gateway --check` prints once the catalog, the endpoints file and the environment have
/// been read as start-up reads them: the routes, the upstreams with where each one's address and
/// timeout came from, and every variable set, secrets as `(set)`.
struct ConfigurationSummary {
    let catalog: GatewayCatalog
    /// The names of the upstreams the endpoints file defines.
    let fileUpstreams: Set<String>
    let environment: [String: String]
    /// The gateway-wide variables, the command's catalog switch among them.
    let variables: [ConfigurationVariable]

    var lines: [String] {
        var lines = ["configuration OK: \(catalog.endpoints.count) endpoints, \(catalog.proxies.count) proxy routes, \(catalog.upstreams.count) upstreams"]
        let set = variables.filter { environment[$0.name] != nil }
        if !set.isEmpty {
            lines.append("settings:")
            lines += set.map { "  " + shown($0) }
        }
        lines.append("endpoints:")
        for endpoint in catalog.endpoints {
            let route = RouteDocumentation(endpoint: endpoint)
            var line = "  \(route.method.rawValue) \(route.openAPIPath) -> \(endpoint.upstreams.joined(separator: ", "))"
            if !endpoint.optionalParts.isEmpty { line += " (optional: \(endpoint.optionalParts.joined(separator: ", ")))" }
            lines.append(line)
        }
        if !catalog.proxies.isEmpty {
            lines.append("proxy routes:")
            // Whether a route lends the upstream's credentials to its clients is worth seeing at a glance.
            lines += catalog.proxies.map {
                "  ANY \($0.metricsRoute) -> \($0.upstream), its credentials " + ($0.upstreamCredentials == .sent ? "sent" : "withheld")
            }
        }
        lines.append("upstreams:")
        for upstream in catalog.upstreams {
            let url = ConfigurationVariable.upstreamURL(upstream), timeout = ConfigurationVariable.upstreamTimeout(upstream)
            lines.append(
                "  \(upstream.name): \(environment[url.name] ?? url.defaultValue) (\(source(of: url, upstream))), "
                    + "timeout \(environment[timeout.name] ?? timeout.defaultValue) ms (\(source(of: timeout, upstream)))")
            lines += ConfigurationVariable.all(for: upstream)
                .filter { $0.name != url.name && $0.name != timeout.name && environment[$0.name] != nil }
                .map { "    " + shown($0) }
        }
        let ignored = catalog.upstreamsOnOffer.flatMap(ConfigurationVariable.all(for:)).map(\.name).filter { environment[$0] != nil }
        if !ignored.isEmpty {
            lines.append("ignored (their upstreams serve no route): \(ignored.sorted().joined(separator: ", "))")
        }
        return lines
    }

    /// `NAME=value`, or `NAME=(set)` for a secret.
    private func shown(_ variable: ConfigurationVariable) -> String {
        "\(variable.name)=\(variable.isSecret ? "(set)" : environment[variable.name] ?? "")"
    }

    private func source(of variable: ConfigurationVariable, _ upstream: UpstreamDefinition) -> String {
        if environment[variable.name] != nil { return variable.name }
        return fileUpstreams.contains(upstream.name) ? "endpoints file" : "default"
    }
}
