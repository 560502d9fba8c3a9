/// Where an upstream's API lives: its origin and the path prefix every request goes below.
///
/// ```swift
/// let base = try BaseURL("https://swapi.dev/api")   // origin https://swapi.dev, prefix "/api"
/// ```
public struct BaseURL: Sendable, Hashable, CustomStringConvertible {
    public let origin: Origin
    /// The normalised, percent-encoded path prefix without a trailing slash; empty for the root.
    public let pathPrefix: String
    /// The request target of the URL itself, its trailing slash kept (`/o/token/` for
    /// `https://id.example/o/token/`, `/` for an origin alone): where a URL that names one resource
    /// (a token endpoint, a key set) is sent, since its server may tell `/o/token/` from `/o/token`.
    public let target: String

    /// Parses an `http` or `https` URL without userinfo, query, fragment, dot segments or encoded slashes.
    public init(_ string: String) throws(InvalidBaseURL) {
        let url: AbsoluteURL
        switch AbsoluteURL.parse(string) {
        case .success(let parsed): url = parsed
        case .failure(let failure): throw InvalidBaseURL(reason: failure.reason)
        }
        guard url.query == nil else { throw InvalidBaseURL(reason: "a query is not allowed") }
        origin = url.origin
        pathPrefix = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        target = url.path.isEmpty ? "/" : url.path
    }

    public var description: String { "\(origin)\(pathPrefix)" }

    /// The request target (path and query) for an absolute link, when the link lies under this base URL.
    ///
    /// A link qualifies when, after normalising, it has the same scheme, host and port and its path
    /// equals the prefix or continues it at a segment boundary (`/api` admits `/api/planets/1/`, not `/apiary`).
    /// - Throws: `UpstreamError.refusedLink` with the reason; nothing is sent for a refused link.
    public func target(forLink link: String) throws(UpstreamError) -> String {
        let url: AbsoluteURL
        switch AbsoluteURL.parse(link) {
        case .success(let parsed): url = parsed
        case .failure(let failure): throw .refusedLink(failure.reason)
        }
        guard url.origin == origin else { throw .refusedLink("link points to another origin") }
        guard url.path == pathPrefix || url.path.hasPrefix(pathPrefix + "/") else {
            throw .refusedLink("link lies outside the base path")
        }
        guard let query = url.query else { return url.path }
        return url.path + "?" + query
    }
}
