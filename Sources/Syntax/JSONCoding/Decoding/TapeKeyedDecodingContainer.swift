/// Reads the members of one JSON object by key.
///
/// Lookups compare the key's UTF-8 with the document bytes; no `String` is made for JSON keys.
/// Unknown keys are ignored; if a key occurs twice, the first occurrence found wins.
struct TapeKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: DecodingDocument
    let objectIndex: Int

    var codingPath: [any CodingKey] { document.codingPath(to: objectIndex) }

    var allKeys: [Key] { document.keys(ofObject: objectIndex).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        document.valueIndex(forKey: key, inObject: objectIndex) != nil
    }

    /// The index of the value under `key`, or a `keyNotFound` error naming it.
    private func valueIndex(for key: Key) throws(JSONDecodingError) -> Int {
        guard let index = document.valueIndex(forKey: key, inObject: objectIndex) else {
            throw document.failure(.keyNotFound, inContainer: objectIndex, at: key, "a required key is missing")
        }
        return index
    }

    /// The index of the value under `key`, or nil when the key is absent or its value is null.
    private func presentValueIndex(for key: Key) -> Int? {
        guard let index = document.valueIndex(forKey: key, inObject: objectIndex), !document.isNull(at: index) else {
            return nil
        }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool { try document.isNull(at: valueIndex(for: key)) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try document.decodeBool(at: valueIndex(for: key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try document.decodeString(at: valueIndex(for: key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try document.decodeDouble(at: valueIndex(for: key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try document.decodeFloat(at: valueIndex(for: key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try document.decodeInteger(type, at: valueIndex(for: key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try document.decodeValue(type, at: valueIndex(for: key)) }

    // One lookup each, where the protocol's default implementations would search three times.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentValueIndex(for: key).map(document.decodeBool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentValueIndex(for: key).map(document.decodeString) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentValueIndex(for: key).map(document.decodeDouble) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try presentValueIndex(for: key).map(document.decodeFloat) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIntegerIfPresent(forKey: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentValueIndex(for: key).map { index in try document.decodeValue(type, at: index) }
    }

    private func decodeIntegerIfPresent<T: FixedWidthInteger>(forKey key: Key) throws -> T? {
        try presentValueIndex(for: key).map { index throws(JSONDecodingError) in try document.decodeInteger(T.self, at: index) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TapeDecoder(document: document, index: valueIndex(for: key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TapeDecoder(document: document, index: valueIndex(for: key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(forKey: IndexOrNameKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(forKey: key as any CodingKey)
    }

    /// Like Foundation, a missing key gives a decoder for `null`; unlike it, that needs a value in
    /// the document, so a missing super key is reported as unsupported instead.
    private func superDecoder(forKey key: any CodingKey) throws -> any Decoder {
        guard let index = document.valueIndex(forKey: key, inObject: objectIndex) else {
            throw document.failure(.unsupported, inContainer: objectIndex, at: key, "superDecoder needs the key to be present")
        }
        return TapeDecoder(document: document, index: index)
    }
}
