/// What `gateway --check` prints once the catalog, the endpoints file and the environment have
/// been read as start-up reads them: the routes with what they ask of callers (token, scopes,
/// rate limit), the upstreams with where each one's address and timeout came from, and every
/// variable set, secrets as `(set)` (or `(empty)`). "(default)" marks a value no one chose.
struct ConfigurationSummary {
    let catalog: GatewayCatalog
    /// The names of the upstreams the endpoints file defines.
    let fileUpstreams: Set<String>
    let environment: [String: String]
    /// Whether a key set is configured: without one no route asks for a token.
    let checksTokens: Bool
    /// Whether browsers sign in (`OIDC_ISSUER`): routes that require authentication accept a session too.
    var signsIn = false
    /// `RATE_LIMIT`: the policy of every route without one of its own; nil when off.
    let defaultRateLimit: RateLimitPolicy?
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
            lines.append(line + admission(endpoint.authentication, endpoint.rateLimit))
        }
        if !catalog.proxies.isEmpty {
            lines.append("proxy routes:")
            // A route that lends the upstream's credentials to its clients is worth seeing at a glance.
            lines += catalog.proxies.map {
                "  ANY \($0.metricsRoute) -> \($0.upstream)" + admission($0.authentication, $0.rateLimit)
                    + ($0.upstreamCredentials == .sent ? "; upstream credentials: sent" : "")
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

    /// `NAME=value`, or for a secret `NAME=(set)`, or `NAME=(empty)` when set to nothing.
    private func shown(_ variable: ConfigurationVariable) -> String {
        let value = environment[variable.name] ?? ""
        guard variable.isSecret else { return "\(variable.name)=\(value)" }
        return "\(variable.name)=\(value.isEmpty ? "(empty)" : "(set)")"
    }

    /// `; auth: token (default); rate limit: 20/s (RATE_LIMIT)`: what a route asks of its callers
    /// and where it comes from.
    private func admission(_ authentication: Authentication, _ rateLimit: RateLimit) -> String {
        var auth: String
        if !checksTokens && !signsIn {
            auth = "none (no key set)"
        } else if !authentication.requiresToken {
            auth = "none"
        } else {
            auth = checksTokens && signsIn ? "token or session" : checksTokens ? "token" : "session"
            if !authentication.scopes.isEmpty { auth += " with scopes \(authentication.scopes.joined(separator: " "))" }
            if authentication == .required { auth += " (default)" }
        }
        let limit = switch rateLimit {
        case .default: defaultRateLimit.map { "\($0) (RATE_LIMIT)" } ?? "off (default)"
        case .off: "off (route)"
        case .limit(let policy): "\(policy) (route)"
        }
        return "; auth: \(auth); rate limit: \(limit)"
    }

    /// Where `variable`'s value came from: the variable itself, the endpoints file, or the
    /// default: a file upstream's value that is the built-in default is not the file's choice.
    private func source(of variable: ConfigurationVariable, _ upstream: UpstreamDefinition) -> String {
        if environment[variable.name] != nil { return variable.name }
        guard fileUpstreams.contains(upstream.name) else { return "default" }
        let builtIn = ConfigurationVariable.all(for: UpstreamDefinition(name: upstream.name, defaultBaseURL: ""))
        return builtIn.first { $0.name == variable.name }?.defaultValue == variable.defaultValue ? "default" : "endpoints file"
    }
}
