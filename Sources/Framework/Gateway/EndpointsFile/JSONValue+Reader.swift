import JSONCoding

extension JSONValue {
    /// The value at `value` of a document read with a depth limit, which bounds this recursion.
    init(_ value: JSONReader.Value, in document: JSONReader) {
        switch document.kind(of: value) {
        case .null: self = .null
        case .bool: self = .bool(document.bool(value) ?? false)
        case .string: self = .string(document.string(value) ?? "")
        case .number:
            if let integer = document.integer(value) {
                self = .integer(integer)
            } else {
                self = .number(Double(document.numberText(value) ?? "") ?? 0)
            }
        case .array:
            var elements: [JSONValue] = []
            document.forEachElement(of: value) { elements.append(JSONValue($0, in: document)) }
            self = .array(elements)
        case .object:
            self = .object(document.members(of: value).map { ($0.key, JSONValue($0.value, in: document)) })
        }
    }
}
