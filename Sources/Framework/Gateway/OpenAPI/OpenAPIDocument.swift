import HTTPBasics

/// The OpenAPI 3.1 description of the gateway, generated from its route table.
enum OpenAPIDocument {
    /// The methods a proxy route is documented with: every one OpenAPI names but TRACE, which
    /// proxy routes refuse. Others are relayed too, but OpenAPI has no place for them.
    private static let proxyMethods: [HTTPMethod] = [.get, .put, .post, .delete, .options, .head, .patch]

    /// The document for `routes` and then `proxies`, each documented as `/prefix/{path}` with
    /// every method but those a route of the same OpenAPI path already documents.
    static func generate(routes: [RouteDocumentation], proxies: [ProxyRoute], title: String, version: String) -> JSONValue {
        var paths: [(String, JSONValue)] = []
        func add(_ operation: JSONValue, _ method: HTTPMethod, at path: String) {
            let method = method.rawValue.lowercased()
            if let index = paths.firstIndex(where: { $0.0 == path }), case .object(var members) = paths[index].1 {
                guard !members.contains(where: { $0.0 == method }) else { return }
                members.append((method, operation))
                paths[index].1 = .object(members)
            } else {
                paths.append((path, .object([(method, operation)])))
            }
        }
        for route in routes {
            add(operation(route), route.method, at: route.openAPIPath)
        }
        for proxy in proxies {
            for method in proxyMethods {
                add(operation(proxy, method), method, at: proxy.openAPIPath)
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
        members.append(("responses", .object(responses(route.responses))))
        return .object(members)
    }

    /// A proxy route's operation for `method`: the upstream's answer whatever its status, or the
    /// gateway's problem when the target is refused or the upstream fails.
    private static func operation(_ proxy: ProxyRoute, _ method: HTTPMethod) -> JSONValue {
        let words = proxy.path.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "_")
        let remainder: JSONValue = .object([
            ("name", "path"),
            ("in", "path"),
            ("required", true),
            ("description", .string("The rest of the path below \(proxy.path), passed to upstream \(proxy.upstream) as sent; it may hold /")),
            ("schema", .object([("type", "string")])),
        ])
        let problems = responses([
            .problem(400, "The path holds a '.' or '..' segment, a control character or an invalid escape"),
            .problem(502, "The upstream could not be reached, or answered invalid HTTP or an oversized body"),
            .problem(503, "The upstream's circuit is open (Retry-After) or too many calls wait for it"),
            .problem(504, "The upstream did not answer in time"),
        ])
        return .object([
            ("summary", .string(proxy.summary)),
            // Endpoints' ids start with their method, so these never take one of theirs.
            ("operationId", .string("proxy_" + method.rawValue.lowercased() + "_" + words)),
            ("parameters", [remainder]),
            ("responses", .object(problems + [("default", .object([("description", "The upstream's answer, passed on whatever its status")]))])),
        ])
    }

    private static func responses(_ documented: [DocumentedResponse]) -> [(String, JSONValue)] {
        var responses: [(String, JSONValue)] = []
        for response in documented {
            var content: [(String, JSONValue)] = []
            if response.contentType == "application/problem+json" {
                content.append(("schema", .object([("$ref", "#/components/schemas/Problem")])))
            } else if let example = response.example, let value = JSONValue(parsing: example) {
                content.append(("schema", JSONSchema.inferred(
                    from: response.typedExample ?? value, nullableFields: response.nullableFields, computedFields: response.computedFields)))
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
        return responses
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
