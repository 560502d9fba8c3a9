import UpstreamKit

extension ConfigurationVariable {
    static let cacheMaximumBytes = ConfigurationVariable(
        "CACHE_MAX_BYTES", default: String(64 << 20),
        "memory for stored upstream answers, all upstreams together; least recently used ones go first; 0 turns the cache off")
    static let cacheMaximumEntryBytes = ConfigurationVariable(
        "CACHE_MAX_ENTRY_BYTES", default: String(1 << 20), "largest upstream answer stored; larger ones pass uncached")

    /// The gateway-wide cache variables, in the order `--help` lists them.
    static let cache: [ConfigurationVariable] = [cacheMaximumBytes, cacheMaximumEntryBytes]

    static func upstreamCache(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CACHE", default: upstream.cache.isEnabled ? "on" : "off",
            "on: store and reuse \(upstream.name)'s answers as its Cache-Control allows, and coalesce identical calls; off: never")
    }

    static func upstreamCacheFreshness(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CACHE_TTL_MS", default: upstream.cache.defaultFreshness.map { String($0.milliseconds) } ?? "",
            "how long an answer of \(upstream.name) that gives no freshness of its own (no max-age, s-maxage or Expires) stays fresh")
    }

    static func upstreamCacheStaleWhileRevalidate(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CACHE_STALE_WHILE_REVALIDATE_MS",
            default: upstream.cache.staleWhileRevalidate.map { String($0.milliseconds) } ?? "",
            "how long past its freshness an answer of \(upstream.name) is served while one request refreshes it, "
                + "when the answer says nothing")
    }

    static func upstreamCacheStaleIfError(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CACHE_STALE_IF_ERROR_MS", default: upstream.cache.staleIfError.map { String($0.milliseconds) } ?? "",
            "how long past its freshness an answer of \(upstream.name) stands in for a failure (5xx, timeout, no connection, "
                + "open circuit), when the answer says nothing")
    }

    static func upstreamCacheGatewayCredentials(_ upstream: UpstreamDefinition) -> ConfigurationVariable {
        ConfigurationVariable(
            upstream.environmentPrefix + "CACHE_GATEWAY_CREDENTIALS", default: upstream.cache.sharesGatewayCredentials ? "shared" : "private",
            "shared: the gateway's own credentials for \(upstream.name) (the same for every client) leave answers shareable; "
                + "private: answers to calls carrying them are stored only when public, s-maxage or must-revalidate (RFC 9111 3.5)")
    }

    /// The cache variables of one upstream, in the order `--help` lists them.
    static func cache(for upstream: UpstreamDefinition) -> [ConfigurationVariable] {
        [
            upstreamCache(upstream), upstreamCacheFreshness(upstream), upstreamCacheStaleWhileRevalidate(upstream),
            upstreamCacheStaleIfError(upstream), upstreamCacheGatewayCredentials(upstream),
        ]
    }
}
