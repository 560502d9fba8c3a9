/// Writes the elements of one JSON array, in order.
struct StreamingUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let context: EncodingContext
    /// The container's frame in the output; nil when it could not be opened (already reported).
    let frame: Int?
    let serial: UInt32

    var codingPath: [any CodingKey] { context.state.pointee.codingPath(throughFrame: frame ?? -1) }
    var count: Int { frame.map { context.state.pointee.elementCount(inFrame: $0, serial: serial) } ?? 0 }

    /// Writes the separator, returning the frame index.
    private func beginElement() throws(JSONEncodingError) -> Int {
        guard let frame else {
            throw JSONEncodingError(reason: .invalidContainerUse, message: "the container could not be opened")
        }
        try context.state.pointee.beginElement(inFrame: frame, serial: serial)
        return frame
    }

    mutating func encodeNil() throws {
        _ = try beginElement()
        context.state.pointee.writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        _ = try beginElement()
        context.state.pointee.writer.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        _ = try beginElement()
        context.state.pointee.writer.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        let index = count
        _ = try beginElement()
        guard context.state.pointee.writer.writeDouble(value) else { throw context.nonConformingNumber(at: codingPath + [IndexOrNameKey(intValue: index)]) }
    }

    mutating func encode(_ value: Float) throws {
        let index = count
        _ = try beginElement()
        guard context.state.pointee.writer.writeFloat(value) else { throw context.nonConformingNumber(at: codingPath + [IndexOrNameKey(intValue: index)]) }
    }

    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        let frame = try beginElement()
        let serial = context.state.pointee.announceValue(at: .index(index))
        try context.encodeValue(value, depth: frame + 1, serial: serial)
    }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T) throws(JSONEncodingError) {
        _ = try beginElement()
        context.state.pointee.writer.writeInteger(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = frame.flatMap { context.state.pointee.openNestedContainer(isObject: true, inFrame: $0, serial: serial, key: nil) }
        return KeyedEncodingContainer(StreamingKeyedEncodingContainer<NestedKey>(context: context, frame: nested?.frame, serial: nested?.serial ?? 0))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = frame.flatMap { context.state.pointee.openNestedContainer(isObject: false, inFrame: $0, serial: serial, key: nil) }
        return StreamingUnkeyedEncodingContainer(context: context, frame: nested?.frame, serial: nested?.serial ?? 0)
    }

    mutating func superEncoder() -> any Encoder { context.unsupportedSuperEncoder(at: codingPath) }
}
