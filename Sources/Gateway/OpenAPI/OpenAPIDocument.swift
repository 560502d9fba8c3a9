/// The OpenAPI 3.1 description of the gateway, generated from its route table.
enum OpenAPIDocument {
    static func generate(routes: [RouteDocumentation], title: String, version: String) -> JSONValue {
        var paths: [(String, JSONValue)] = []
        for route in routes {
            let operation = self.operation(route)
            let method = route.method.rawValue.lowercased()
            if let index = paths.firstIndex(where: { $0.0 == route.openAPIPath }), case .object(var members) = paths[index].1 {
                members.append((method, operation))
                paths[index].1 = .object(members)
            } else {
                paths.append((route.openAPIPath, .object([(method, operation)])))
            }
        }
        return .object([
            ("openapi", "3.1.0"),
            ("info", .object([("title", .string(title)), ("version", .string(version))])),
            ("paths", .object(paths)),
            ("components", .object([("schemas", .object([("Problem", problemSchema)]))])),
        ])
    }

    private static func operation(_ route: RouteDocumentation) -> JSONValue {
        var members: [(String, JSONValue)] = [("summary", .string(route.summary))]
        let operationID = route.openAPIPath.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "_")
        members.append(("operationId", .string(route.method.rawValue.lowercased() + "_" + (operationID.isEmpty ? "root" : operationID))))
        if !route.parameters.isEmpty {
            members.append(("parameters", .array(route.parameters.map(parameter))))
        }
        if let body = route.requestBody {
            let content: JSONValue = .object([("schema", JSONSchema.inferred(from: body)), ("example", body)])
            members.append(("requestBody", .object([("required", true), ("content", .object([("application/json", content)]))])))
        }
        var responses: [(String, JSONValue)] = []
        for response in route.responses {
            var content: [(String, JSONValue)] = []
            if response.contentType == "application/problem+json" {
                content.append(("schema", .object([("$ref", "#/components/schemas/Problem")])))
            } else if let example = response.example, let value = JSONValue(parsing: example) {
                content.append(("schema", JSONSchema.inferred(from: response.typedExample ?? value, nullableFields: response.nullableFields)))
                content.append(("example", value))
            } else if response.contentType == "application/json" {
                content.append(("schema", .object([("type", "object")])))
            } else {
                content.append(("schema", .object([("type", "string")])))
            }
            responses.append(
                (String(response.status), .object([
                    ("description", .string(response.description)),
                    ("content", .object([(response.contentType, .object(content))])),
                ])))
        }
        members.append(("responses", .object(responses)))
        return .object(members)
    }

    private static func parameter(_ parameter: EndpointParameter) -> JSONValue {
        var schema: [(String, JSONValue)]
        switch parameter.kind {
        case .integer(let range, let defaultValue):
            schema = [("type", "integer"), ("minimum", .integer(range.lowerBound)), ("maximum", .integer(range.upperBound))]
            if let defaultValue { schema.append(("default", .integer(defaultValue))) }
        case .string:
            schema = [("type", "string"), ("minLength", 1), ("maxLength", 200)]
        case .text(let maximumLength, let pattern, let defaultValue):
            schema = [("type", "string"), ("minLength", 1), ("maxLength", .integer(maximumLength))]
            if let pattern { schema.append(("pattern", .string(pattern.source))) }
            if let defaultValue { schema.append(("default", .string(defaultValue))) }
        }
        return .object([
            ("name", .string(parameter.name)),
            ("in", .string(parameter.location.rawValue)),
            ("required", .bool(parameter.location == .path)),
            ("description", .string(parameter.summary)),
            ("schema", .object(schema)),
        ])
    }

    /// RFC 9457 problem details.
    private static let problemSchema: JSONValue = .object([
        ("type", "object"),
        ("properties", .object([
            ("type", .object([("type", "string")])),
            ("title", .object([("type", "string")])),
            ("status", .object([("type", "integer")])),
            ("detail", .object([("type", "string")])),
            ("instance", .object([("type", "string")])),
        ])),
        ("required", ["type", "title", "status"]),
    ])
}
