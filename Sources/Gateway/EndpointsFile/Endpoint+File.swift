import HTTPBasics

extension Endpoint {
    /// A combined endpoint defined in the endpoints file; `example` is already encoded JSON.
    init(
        method: HTTPMethod, path: String, summary: String, parameters: [EndpointParameter], optionalParts: [String],
        nullableFields: [String], example: [UInt8], respond: @escaping @Sendable (EndpointCall) async throws -> [UInt8]
    ) {
        self.method = method
        self.path = path
        self.summary = summary
        self.parameters = parameters
        self.optionalParts = optionalParts
        self.nullableFields = nullableFields
        self.example = example
        self.respond = respond
    }
}
