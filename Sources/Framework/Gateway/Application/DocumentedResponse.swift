/// One response a route may give, as documented in OpenAPI.
struct DocumentedResponse: Sendable {
    let status: Int
    let description: String
    let contentType: String
    /// An example body, already encoded as JSON; its shape gives the documented schema.
    let example: [UInt8]?
    /// The example with numbers typed by their Swift type (`Double` a number even when whole),
    /// for the schema; without it the schema is inferred from `example`'s digits.
    let typedExample: JSONValue?
    /// Top-level fields that may be `null` (the optional parts of a combined endpoint).
    let nullableFields: [String]
    /// Members computed by an expression, by dotted path, with the expression.
    let computedFields: [String: String]

    init(
        status: Int, description: String, contentType: String = "application/json", example: [UInt8]? = nil,
        typedExample: JSONValue? = nil, nullableFields: [String] = [], computedFields: [String: String] = [:]
    ) {
        self.status = status
        self.description = description
        self.contentType = contentType
        self.example = example
        self.typedExample = typedExample
        self.nullableFields = nullableFields
        self.computedFields = computedFields
    }

    /// An `application/problem+json` error response.
    static func problem(_ status: Int, _ description: String) -> DocumentedResponse {
        DocumentedResponse(status: status, description: description, contentType: "application/problem+json")
    }
}
