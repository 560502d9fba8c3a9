/// The `Decoder` handed to a model's `init(from:)`: one value of a parsed document.
///
/// Two words, so Swift stores it inline in the `any Decoder` existential without allocating.
struct TapeDecoder: Decoder {
    let document: DecodingDocument
    let index: Int

    var codingPath: [any CodingKey] { document.codingPath(to: index) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try document.requireContainer(.object, at: index)
        return KeyedDecodingContainer(TapeKeyedDecodingContainer<Key>(document: document, objectIndex: index))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try document.requireContainer(.array, at: index)
        return TapeUnkeyedDecodingContainer(document: document, arrayIndex: index)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}

extension TapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { document.isNull(at: index) }
    func decode(_ type: Bool.Type) throws -> Bool { try document.decodeBool(at: index) }
    func decode(_ type: String.Type) throws -> String { try document.decodeString(at: index) }
    func decode(_ type: Double.Type) throws -> Double { try document.decodeDouble(at: index) }
    func decode(_ type: Float.Type) throws -> Float { try document.decodeFloat(at: index) }
    func decode(_ type: Int.Type) throws -> Int { try document.decodeInteger(type, at: index) }
    func decode(_ type: Int8.Type) throws -> Int8 { try document.decodeInteger(type, at: index) }
    func decode(_ type: Int16.Type) throws -> Int16 { try document.decodeInteger(type, at: index) }
    func decode(_ type: Int32.Type) throws -> Int32 { try document.decodeInteger(type, at: index) }
    func decode(_ type: Int64.Type) throws -> Int64 { try document.decodeInteger(type, at: index) }
    func decode(_ type: UInt.Type) throws -> UInt { try document.decodeInteger(type, at: index) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try document.decodeInteger(type, at: index) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try document.decodeInteger(type, at: index) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try document.decodeInteger(type, at: index) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try document.decodeInteger(type, at: index) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try document.decodeValue(type, at: index) }
}
