/// What the router learned about a request before calling its handler.
public struct RequestContext: Sendable {
    /// The decoded `:name` segments of the matched route.
    public let parameters: PathParameters
    /// The decoded query.
    public let query: QueryParameters

    public init(parameters: PathParameters, query: QueryParameters) {
        self.parameters = parameters
        self.query = query
    }
}
