/// The `Encoder` handed to a model's `encode(to:)`: one value position in the output.
///
/// Three words, so Swift stores it inline in the `any Encoder` existential without allocating.
struct StreamingEncoder: Encoder {
    let context: EncodingContext
    let depth: Int
    let serial: UInt32

    var codingPath: [any CodingKey] { context.state.pointee.codingPath(depth: depth, serial: serial) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frame = context.state.pointee.openContainer(isObject: true, depth: depth, serial: serial)
        return KeyedEncodingContainer(StreamingKeyedEncodingContainer<Key>(context: context, frame: frame, serial: serial))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let frame = context.state.pointee.openContainer(isObject: false, depth: depth, serial: serial)
        return StreamingUnkeyedEncodingContainer(context: context, frame: frame, serial: serial)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension StreamingEncoder: SingleValueEncodingContainer {
    func encodeNil() throws {
        try context.state.pointee.beginValue(depth: depth, serial: serial)
        context.state.pointee.writer.writeNull()
    }

    func encode(_ value: Bool) throws {
        try context.state.pointee.beginValue(depth: depth, serial: serial)
        context.state.pointee.writer.writeBool(value)
    }

    func encode(_ value: String) throws {
        try context.state.pointee.beginValue(depth: depth, serial: serial)
        context.state.pointee.writer.writeString(value)
    }

    func encode(_ value: Double) throws {
        try context.state.pointee.beginValue(depth: depth, serial: serial)
        guard context.state.pointee.writer.writeDouble(value) else { throw context.nonConformingNumber(at: codingPath) }
    }

    func encode(_ value: Float) throws {
        try context.state.pointee.beginValue(depth: depth, serial: serial)
        guard context.state.pointee.writer.writeFloat(value) else { throw context.nonConformingNumber(at: codingPath) }
    }

    func encode(_ value: Int) throws { try encodeInteger(value) }
    func encode(_ value: Int8) throws { try encodeInteger(value) }
    func encode(_ value: Int16) throws { try encodeInteger(value) }
    func encode(_ value: Int32) throws { try encodeInteger(value) }
    func encode(_ value: Int64) throws { try encodeInteger(value) }
    func encode(_ value: UInt) throws { try encodeInteger(value) }
    func encode(_ value: UInt8) throws { try encodeInteger(value) }
    func encode(_ value: UInt16) throws { try encodeInteger(value) }
    func encode(_ value: UInt32) throws { try encodeInteger(value) }
    func encode(_ value: UInt64) throws { try encodeInteger(value) }

    /// A wrapped value (such as an `Optional`'s) takes this same position.
    func encode<T: Encodable>(_ value: T) throws {
        try context.encodeValue(value, depth: depth, serial: serial)
    }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T) throws(JSONEncodingError) {
        try context.state.pointee.beginValue(depth: depth, serial: serial)
        context.state.pointee.writer.writeInteger(value)
    }
}
