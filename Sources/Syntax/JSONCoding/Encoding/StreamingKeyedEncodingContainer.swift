/// Writes the members of one JSON object, in the order the model encodes them.
struct StreamingKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let context: EncodingContext
    /// The container's frame in the output; nil when it could not be opened (already reported).
    let frame: Int?
    let serial: UInt32

    var codingPath: [any CodingKey] { context.state.pointee.codingPath(throughFrame: frame ?? -1) }

    /// Writes the separator and `"key":`, returning the frame index.
    private func beginMember(_ key: Key) throws(JSONEncodingError) -> Int {
        guard let frame else {
            throw JSONEncodingError(reason: .invalidContainerUse, message: "the container could not be opened")
        }
        try context.state.pointee.beginElement(inFrame: frame, serial: serial)
        context.state.pointee.writeKey(key)
        return frame
    }

    mutating func encodeNil(forKey key: Key) throws {
        _ = try beginMember(key)
        context.state.pointee.writer.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        _ = try beginMember(key)
        context.state.pointee.writer.writeBool(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        _ = try beginMember(key)
        context.state.pointee.writer.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        _ = try beginMember(key)
        guard context.state.pointee.writer.writeDouble(value) else { throw context.nonConformingNumber(at: codingPath + [key]) }
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        _ = try beginMember(key)
        guard context.state.pointee.writer.writeFloat(value) else { throw context.nonConformingNumber(at: codingPath + [key]) }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let frame = try beginMember(key)
        // The key outlives the value's encoding, so its coding path points at it instead of copying it.
        try withUnsafePointer(to: key) { key in
            let serial = context.state.pointee.announceValue(at: .borrowedKey(UnsafeRawPointer(key), Key.self))
            defer { context.state.pointee.releaseKey(depth: frame + 1, serial: serial) }
            try context.encodeValue(value, depth: frame + 1, serial: serial)
        }
    }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T, forKey key: Key) throws(JSONEncodingError) {
        _ = try beginMember(key)
        context.state.pointee.writer.writeInteger(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = frame.flatMap { context.state.pointee.openNestedContainer(isObject: true, inFrame: $0, serial: serial, key: key) }
        return KeyedEncodingContainer(StreamingKeyedEncodingContainer<NestedKey>(context: context, frame: nested?.frame, serial: nested?.serial ?? 0))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = frame.flatMap { context.state.pointee.openNestedContainer(isObject: false, inFrame: $0, serial: serial, key: key) }
        return StreamingUnkeyedEncodingContainer(context: context, frame: nested?.frame, serial: nested?.serial ?? 0)
    }

    mutating func superEncoder() -> any Encoder { context.unsupportedSuperEncoder(at: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { context.unsupportedSuperEncoder(at: codingPath + [key]) }
}
