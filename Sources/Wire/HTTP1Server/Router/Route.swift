public import HTTPBasics
/// A registered route as the router lists it, e.g. `GET /v1/people/:id`, for documentation
/// such as an OpenAPI description.
public struct Route: Sendable, Hashable {
    public let method: HTTPMethod
    /// The pattern as registered; `:name` segments are path parameters.
    public let pattern: String

    /// The names of the path parameters in pattern order.
    public var parameterNames: [String] {
        pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }
}
