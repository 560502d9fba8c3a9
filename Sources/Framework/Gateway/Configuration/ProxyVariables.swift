import HTTP1Client

extension ConfigurationVariable {
    static let httpProxy = ConfigurationVariable(
        "HTTP_PROXY", default: "",
        "proxy for http:// upstreams, http://[user:password@]host[:port]; http_proxy wins when both are set",
        isSecret: true)
    static let httpsProxy = ConfigurationVariable(
        "HTTPS_PROXY", default: "",
        "proxy tunnelling (CONNECT) to https:// upstreams, same form; https_proxy wins when both are set",
        isSecret: true)
    static let noProxy = ConfigurationVariable(
        "NO_PROXY", default: "",
        "hosts reached directly: *, domains, IPs, CIDR ranges, each with an optional :port; no_proxy wins when both are set")

    /// The proxy variables as `--help` lists them; each is read in lower case too, which wins.
    static let proxies: [ConfigurationVariable] = [httpProxy, httpsProxy, noProxy]
}

extension EnvironmentReader {
    /// The egress proxies, or nil when neither `HTTP_PROXY` nor `HTTPS_PROXY` is set.
    ///
    /// As curl reads them, the lower-case spelling of each variable wins over the upper-case
    /// one; an empty value counts as unset. Errors name the variable, never its value, which
    /// may hold a password.
    func proxySettings() throws(ConfigurationError) -> ProxySettings? {
        let httpProxy = try proxyServer(.httpProxy)
        let httpsProxy = try proxyServer(.httpsProxy)
        guard httpProxy != nil || httpsProxy != nil else { return nil }
        let bypass = ProxyBypassList(proxyVariable(.noProxy)?.value ?? "")
        return ProxySettings(httpProxy: httpProxy, httpsProxy: httpsProxy, bypass: bypass)
    }

    private func proxyServer(_ variable: ConfigurationVariable) throws(ConfigurationError) -> ProxyServer? {
        guard let (name, value) = proxyVariable(variable) else { return nil }
        do {
            return try ProxyServer(url: value)
        } catch {
            throw ConfigurationError(variable: name, problem: error.description)
        }
    }

    /// The name and value of the first non-empty spelling of `variable`, lower case first.
    private func proxyVariable(_ variable: ConfigurationVariable) -> (name: String, value: String)? {
        for name in [variable.name.lowercased(), variable.name] {
            if let value = environment[name], !value.allSatisfy(\.isWhitespace) { return (name, value) }
        }
        return nil
    }
}
