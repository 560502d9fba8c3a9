import HTTPBasics

extension Endpoint {
    /// A combined endpoint defined in the endpoints file. `example` is already encoded JSON
    /// (empty when the file gives none, documented as an object), and `respond` writes the
    /// whole body: the file's response template appends `degraded` to every object response,
    /// with optional calls or without, so the framework does not add it.
    init(
        method: HTTPMethod, path: String, summary: String, authentication: Authentication, rateLimit: RateLimit, parameters: [EndpointParameter],
        upstreams: [UpstreamDefinition],
        optionalParts: [String], nullableFields: [String], computedFields: [String: String], example: [UInt8], missingFields: MissingFieldLog,
        respond: @escaping @Sendable (EndpointCall) async throws -> [UInt8]
    ) {
        self.method = method
        self.path = path
        self.summary = summary
        self.successStatus = .ok
        self.authentication = authentication
        self.rateLimit = rateLimit
        self.parameters = parameters
        self.upstreams = upstreams.map(\.name)
        self.optionalParts = optionalParts
        self.nullableFields = nullableFields
        self.computedFields = computedFields
        self.example = example
        self.typedExample = nil
        self.requestExample = nil
        self.missingFields = missingFields
        self.respond = respond
        streamed = nil
    }
}
