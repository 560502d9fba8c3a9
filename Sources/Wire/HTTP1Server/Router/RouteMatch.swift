/// What the router learned about a request matching an exact route, for its handler: the
/// counterpart of `PrefixMatch` for prefix routes.
public struct RouteMatch: Sendable {
    /// The decoded `:name` segments of the matched route.
    public let parameters: PathParameters
    /// The decoded query.
    public let query: QueryParameters

    /// A match with these parameters and query.
    public init(parameters: PathParameters, query: QueryParameters) {
        self.parameters = parameters
        self.query = query
    }
}
