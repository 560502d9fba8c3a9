/// Encodes a value into a `JSONValue` that keeps the Swift type of each number: `Double` and
/// `Float` become `.number` even when whole (`6.0`), integers `.integer`. Schemas inferred from
/// it follow the response type, where schemas inferred from encoded bytes would follow the
/// example's digits. Used for documentation only, never on the request path.
enum TypedValueEncoder {
    static func encode(_ value: some Encodable) throws -> JSONValue {
        try encodeFindingNullable(value).value
    }

    /// `value` encoded, and the dotted paths of its `@Nullable` members, named as
    /// `JSONSchema.inferred(from:nullableFields:)` names them (an array's elements at the array's
    /// own path), so that the schema says `null` where the type allows it, whatever the example holds.
    static func encodeFindingNullable(_ value: some Encodable) throws -> (value: JSONValue, nullableFields: [String]) {
        let root = Node()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return (root.value, root.nullablePaths(at: ""))
    }

    /// One position in the document being built; containers fill in their members as they are encoded.
    private final class Node {
        enum Content {
            case empty
            case scalar(JSONValue)
            case object([(String, Node)])
            case array([Node])
        }

        var content = Content.empty
        /// Whether a `@Nullable` wrapper was encoded here.
        var isNullable = false

        var value: JSONValue {
            switch content {
            case .empty: .object([])
            case .scalar(let value): value
            case .object(let members): .object(members.map { ($0.0, $0.1.value) })
            case .array(let elements): .array(elements.map(\.value))
            }
        }

        func nullablePaths(at path: String) -> [String] {
            switch content {
            case .empty, .scalar: []
            case .array(let elements): elements.flatMap { $0.nullablePaths(at: path) }
            case .object(let members):
                members.flatMap { key, member in
                    let memberPath = path.isEmpty ? key : path + "." + key
                    return (member.isNullable ? [memberPath] : []) + member.nullablePaths(at: memberPath)
                }
            }
        }

        func member(_ key: String) -> Node {
            if case .object(var members) = content {
                if let existing = members.first(where: { $0.0 == key }) { return existing.1 }
                let node = Node()
                members.append((key, node))
                content = .object(members)
                return node
            }
            let node = Node()
            content = .object([(key, node)])
            return node
        }

        func element() -> Node {
            let node = Node()
            if case .array(let elements) = content {
                content = .array(elements + [node])
            } else {
                content = .array([node])
            }
            return node
        }
    }

    private struct NodeEncoder: Encoder, SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = node.content {} else { node.content = .object([]) }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.content {} else { node.content = .array([]) }
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { self }

        func encodeNil() throws { node.content = .scalar(.null) }
        func encode(_ value: Bool) throws { node.content = .scalar(.bool(value)) }
        func encode(_ value: String) throws { node.content = .scalar(.string(value)) }
        func encode(_ value: Double) throws { node.content = .scalar(.number(value)) }
        func encode(_ value: Float) throws { node.content = .scalar(.number(Double(value))) }
        func encode(_ value: Int) throws { node.content = .scalar(.integer(value)) }
        func encode(_ value: Int8) throws { node.content = .scalar(.integer(Int(value))) }
        func encode(_ value: Int16) throws { node.content = .scalar(.integer(Int(value))) }
        func encode(_ value: Int32) throws { node.content = .scalar(.integer(Int(value))) }
        func encode(_ value: Int64) throws { node.content = .scalar(.integer(Int(clamping: value))) }
        func encode(_ value: UInt) throws { node.content = .scalar(.integer(Int(clamping: value))) }
        func encode(_ value: UInt8) throws { node.content = .scalar(.integer(Int(value))) }
        func encode(_ value: UInt16) throws { node.content = .scalar(.integer(Int(value))) }
        func encode(_ value: UInt32) throws { node.content = .scalar(.integer(Int(value))) }
        func encode(_ value: UInt64) throws { node.content = .scalar(.integer(Int(clamping: value))) }
        func encode<T: Encodable>(_ value: T) throws { try value.encode(to: self) }
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func encoder(for key: Key) -> NodeEncoder {
            NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
        }

        func encodeNil(forKey key: Key) throws { try encoder(for: key).encodeNil() }
        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let encoder = encoder(for: key)
            if value is any NullableMember { encoder.node.isNullable = true }
            try value.encode(to: encoder)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            encoder(for: key).container(keyedBy: keyType)
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder(for: key).unkeyedContainer() }
        func superEncoder() -> any Encoder { NodeEncoder(node: node.member("super"), codingPath: codingPath) }
        func superEncoder(forKey key: Key) -> any Encoder { encoder(for: key) }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        var count: Int {
            if case .array(let elements) = node.content { return elements.count }
            return 0
        }

        private func next() -> NodeEncoder { NodeEncoder(node: node.element(), codingPath: codingPath) }

        func encodeNil() throws { try next().encodeNil() }
        func encode<T: Encodable>(_ value: T) throws { try value.encode(to: next()) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            next().container(keyedBy: keyType)
        }

        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
        func superEncoder() -> any Encoder { next() }
    }
}
