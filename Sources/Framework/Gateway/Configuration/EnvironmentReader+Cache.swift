import UpstreamKit

extension EnvironmentReader {
    /// The cache settings of `definition`'s `UPSTREAM_{NAME}_CACHE*` variables.
    func upstreamCache(_ definition: UpstreamDefinition) throws(ConfigurationError) -> CacheSettings {
        CacheSettings(
            isEnabled: try choice(.upstreamCache(definition), from: ["on", "off"]) == "on",
            defaultFreshness: try optionalMilliseconds(.upstreamCacheFreshness(definition), in: 1...(365 * 86_400_000)),
            staleWhileRevalidate: try optionalMilliseconds(.upstreamCacheStaleWhileRevalidate(definition), in: 1...(365 * 86_400_000)),
            staleIfError: try optionalMilliseconds(.upstreamCacheStaleIfError(definition), in: 1...(365 * 86_400_000)),
            sharesGatewayCredentials: try choice(.upstreamCacheGatewayCredentials(definition), from: ["shared", "private"]) == "shared")
    }

    /// A duration in milliseconds, or nil when the variable is unset or empty.
    func optionalMilliseconds(_ variable: ConfigurationVariable, in range: ClosedRange<Int>) throws(ConfigurationError) -> Duration? {
        guard !text(variable).isEmpty else { return nil }
        return try milliseconds(variable, in: range)
    }

    /// One of `choices`, compared exactly.
    func choice(_ variable: ConfigurationVariable, from choices: [String]) throws(ConfigurationError) -> String {
        let value = text(variable)
        guard choices.contains(value) else {
            throw ConfigurationError(
                variable: variable.name, problem: "must be \(choices.joined(separator: " or ")), got \(quoted(value, of: variable))")
        }
        return value
    }
}
