extension ConfigurationVariable {
    static let rateLimit = ConfigurationVariable(
        "RATE_LIMIT", default: "off",
        "requests each caller (token sub, else address) may make to each endpoint and proxy route: 20/s, 600/min, 1000/h, "
            + "optionally followed by \" burst N\", or off; routes may set their own (docs/SECURITY.md)")
    static let rateLimitMaximumClients = ConfigurationVariable(
        "RATE_LIMIT_MAX_CLIENTS", default: "100000",
        "most callers (per route) whose rate limit state is held; at the bound those nearest to a full allowance are forgotten")
    static let trustedProxies = ConfigurationVariable(
        "TRUSTED_PROXIES", default: "",
        "comma-separated IPs and CIDR blocks of proxies whose TRUSTED_PROXIES_HEADER names the client, for rate limits and proxy routes")
    static let trustedProxiesHeader = ConfigurationVariable(
        "TRUSTED_PROXIES_HEADER", default: "X-Forwarded-For", "the field trusted proxies write the client's address in: X-Forwarded-For or Forwarded")

    /// The rate limit variables, in the order `--help` lists them.
    static let rateLimits: [ConfigurationVariable] = [rateLimit, rateLimitMaximumClients, trustedProxies, trustedProxiesHeader]
}
