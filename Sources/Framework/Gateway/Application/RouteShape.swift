import HTTPBasics

/// A route as the router's trie holds it, split into segments once, so that checking every
/// route against every other splits each path once.
struct RouteShape {
    let method: HTTPMethod
    /// The router pattern's segments, `:name` for a parameter.
    private let segments: [Substring]
    /// `GET /v1/people/{id}`, for error lines.
    private let name: String

    init(_ route: RouteDocumentation) {
        method = route.method
        segments = route.path == "/" ? [] : route.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        name = "\(route.method) \(route.openAPIPath)"
    }

    /// Why the router could not serve this route beside `other`: it would serve one for the
    /// other (same method and shape), or hold a parameter named differently at the same place
    /// (which the route trie refuses). Nil when both can be served.
    func clash(with other: RouteShape) -> String? {
        for (mine, theirs) in zip(segments, other.segments) {
            if mine.hasPrefix(":") && theirs.hasPrefix(":") {
                guard mine == theirs else {
                    return "route clashes with \(other.name): its parameter \(mine.dropFirst()) is at the place of \(theirs.dropFirst()); use the same name"
                }
            } else if mine != theirs {
                return nil
            }
        }
        guard segments.count == other.segments.count, method == other.method else { return nil }
        return "route clashes with \(other.name)"
    }
}
