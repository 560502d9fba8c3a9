import NetworkRuntime

/// The rate limit variables: the default policy, the bound on callers held, and the proxies
/// trusted to say who the client is.
struct RateLimitConfiguration: Sendable {
    /// `RATE_LIMIT`: the policy of every route that does not set its own; nil when `off`.
    var defaultPolicy: RateLimitPolicy?
    /// `RATE_LIMIT_MAX_CLIENTS`: the most keys (a caller on a route) held at once.
    var maximumClients: Int
    /// `TRUSTED_PROXIES` and `TRUSTED_PROXIES_HEADER`.
    var trustedProxies: TrustedProxies

    init(defaultPolicy: RateLimitPolicy? = nil, maximumClients: Int = 100_000, trustedProxies: TrustedProxies = TrustedProxies([])) {
        self.defaultPolicy = defaultPolicy
        self.maximumClients = maximumClients
        self.trustedProxies = trustedProxies
    }

    static func read(_ reader: EnvironmentReader) throws(ConfigurationError) -> RateLimitConfiguration {
        let text = reader.text(.rateLimit)
        let setting = try? RateLimit(parsing: text)
        guard let setting, setting != .default else {
            throw ConfigurationError(
                variable: ConfigurationVariable.rateLimit.name,
                problem: "must be off, or N/s, N/min or N/h optionally followed by \" burst N\" (N from 1 to 1000000), got \(reader.quoted(text, of: .rateLimit))")
        }
        let maximumClients = try reader.integer(.rateLimitMaximumClients, in: 1024...100_000_000)
        var ranges: [IPAddressRange] = []
        for entry in reader.text(.trustedProxies).split(separator: ",") {
            let entry = String(entry.trimmingWhitespace)
            guard let range = IPAddressRange(entry) else {
                throw ConfigurationError(
                    variable: ConfigurationVariable.trustedProxies.name,
                    problem: "holds \(reader.quoted(entry, of: .trustedProxies)), which is not an IPv4 or IPv6 address or CIDR block (10.0.0.0/8, fd00::/8)")
            }
            ranges.append(range)
        }
        let header = reader.text(.trustedProxiesHeader)
        guard let field = [TrustedProxies.Field.xForwardedFor, .forwarded].first(where: { $0.rawValue.equalsIgnoringASCIICase(header) }) else {
            throw ConfigurationError(
                variable: ConfigurationVariable.trustedProxiesHeader.name,
                problem: "must be X-Forwarded-For or Forwarded, got \(reader.quoted(header, of: .trustedProxiesHeader))")
        }
        return RateLimitConfiguration(
            defaultPolicy: setting.policy(default: nil), maximumClients: maximumClients, trustedProxies: TrustedProxies(ranges, field: field))
    }
}
