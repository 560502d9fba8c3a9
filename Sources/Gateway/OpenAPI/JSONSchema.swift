/// JSON Schema (2020-12, as OpenAPI 3.1 uses it) inferred from an example value.
enum JSONSchema {
    /// The schema of `example`: types, properties (all required) and array items from the
    /// first element. Top-level members named in `nullableFields` may also be null.
    static func inferred(from example: JSONValue, nullableFields: [String] = []) -> JSONValue {
        guard case .object(let members) = example else { return schema(of: example) }
        let properties = members.map { key, value -> (String, JSONValue) in
            var property = schema(of: value)
            if nullableFields.contains(key) { property = allowingNull(property) }
            return (key, property)
        }
        return .object([
            ("type", "object"), ("properties", .object(properties)), ("required", .array(members.map { .string($0.0) })),
        ])
    }

    private static func schema(of value: JSONValue) -> JSONValue {
        switch value {
        case .null: .object([("type", "null")])
        case .bool: .object([("type", "boolean")])
        case .integer: .object([("type", "integer")])
        case .number: .object([("type", "number")])
        case .string: .object([("type", "string")])
        case .array(let elements):
            .object([("type", "array"), ("items", elements.first.map(schema(of:)) ?? .object([]))])
        case .object: inferred(from: value)
        }
    }

    private static func allowingNull(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema, let index = members.firstIndex(where: { $0.0 == "type" }),
              case .string(let type) = members[index].1
        else { return schema }
        members[index].1 = [.string(type), "null"]
        return .object(members)
    }
}
