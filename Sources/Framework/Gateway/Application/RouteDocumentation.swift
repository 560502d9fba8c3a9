import HTTPBasics

/// What the OpenAPI document and `GET /` say about one route; kept beside its handler in the
/// route table so documentation cannot drift from what is served.
struct RouteDocumentation: Sendable {
    let method: HTTPMethod
    /// The router pattern, with `:name` for path parameters.
    let path: String
    let summary: String
    let parameters: [EndpointParameter]
    let responses: [DocumentedResponse]
    /// An example of the JSON request body, for routes that read one.
    var requestBody: JSONValue? = nil

    /// The path in OpenAPI form: `/v1/people/{id}`.
    var openAPIPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            .joined(separator: "/")
    }
}
