import UpstreamKit

/// A `"cache"` object of the endpoints file, on an upstream or a call, compiled into `CacheSettings`:
///
/// ```json
/// "cache": { "enabled": true, "ttl_ms": 60000, "stale_while_revalidate_ms": 10000,
///            "stale_if_error_ms": 300000, "gateway_credentials": "shared" }
/// ```
///
/// Every field is optional; what is left out is the default (`CacheSettings.standard`): the
/// upstream's headers decide.
enum CacheDefinition {
    static let fields: Set<String> = ["enabled", "ttl_ms", "stale_while_revalidate_ms", "stale_if_error_ms", "gateway_credentials"]
    /// A year: longer windows are a typo more likely than a wish.
    private static let longest = 365 * 86_400_000

    static func compile(_ value: JSONValue, place: String) throws(EndpointsFileError) -> CacheSettings {
        let object = try FileObject(value, place: place, fields: fields)
        var settings = CacheSettings.standard
        settings.isEnabled = try object.bool("enabled") ?? true
        settings.defaultFreshness = try duration(object, "ttl_ms")
        settings.staleWhileRevalidate = try duration(object, "stale_while_revalidate_ms")
        settings.staleIfError = try duration(object, "stale_if_error_ms")
        switch try object.string("gateway_credentials") ?? "shared" {
        case "shared": settings.sharesGatewayCredentials = true
        case "private": settings.sharesGatewayCredentials = false
        default: throw EndpointsFileError("\(object.place): gateway_credentials must be shared or private")
        }
        return settings
    }

    private static func duration(_ object: FileObject, _ key: String) throws(EndpointsFileError) -> Duration? {
        guard let milliseconds = try object.integer(key) else { return nil }
        guard (1...longest).contains(milliseconds) else { throw EndpointsFileError("\(object.place): \(key) must be from 1 to \(longest)") }
        return .milliseconds(milliseconds)
    }
}
