/// JSON Schema (2020-12, as OpenAPI 3.1 uses it) inferred from an example value.
enum JSONSchema {
    /// The schema of `example`: types, properties (all required) and array items from the
    /// first element. Members named in `nullableFields` may also be null: top-level ones by
    /// name, deeper ones by dotted path (`homeworld.population`). Members named in
    /// `computedFields` (by the same paths) get a description that gives their expression.
    static func inferred(from example: JSONValue, nullableFields: [String] = [], computedFields: [String: String] = [:]) -> JSONValue {
        schema(of: example, at: "", nullableFields: Set(nullableFields), computedFields: computedFields)
    }

    private static func schema(of value: JSONValue, at path: String, nullableFields: Set<String>, computedFields: [String: String]) -> JSONValue {
        switch value {
        case .null: .object([("type", "null")])
        case .bool: .object([("type", "boolean")])
        case .integer: .object([("type", "integer")])
        case .number: .object([("type", "number")])
        case .string: .object([("type", "string")])
        case .array(let elements):
            .object([("type", "array"), ("items", elements.first.map { schema(of: $0, at: path, nullableFields: nullableFields, computedFields: computedFields) } ?? .object([]))])
        case .object(let members):
            .object([
                ("type", "object"),
                ("properties", .object(members.map { key, member in
                    let memberPath = path.isEmpty ? key : path + "." + key
                    var property = schema(of: member, at: memberPath, nullableFields: nullableFields, computedFields: computedFields)
                    if nullableFields.contains(memberPath) { property = allowingNull(property) }
                    if let expression = computedFields[memberPath], case .object(var members) = property {
                        members.append(("description", .string("Computed by the JMESPath expression \(expression)")))
                        property = .object(members)
                    }
                    return (key, property)
                })),
                ("required", .array(members.map { .string($0.0) })),
            ])
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
