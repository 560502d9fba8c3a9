/// Reads the elements of one JSON array in order.
///
/// Three words (positions as `UInt32`, which the parser guarantees suffice), so the
/// `any UnkeyedDecodingContainer` existential stores it without allocating.
struct TapeUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let document: DecodingDocument
    private let arrayIndex: UInt32
    private let elementCount: UInt32
    /// The tape index of the next element.
    private var cursor: UInt32
    private var position: UInt32 = 0

    init(document: DecodingDocument, arrayIndex: Int) {
        self.document = document
        self.arrayIndex = UInt32(truncatingIfNeeded: arrayIndex)
        self.elementCount = UInt32(truncatingIfNeeded: document.containerCount(at: arrayIndex))
        self.cursor = UInt32(truncatingIfNeeded: arrayIndex + 1)
    }

    var codingPath: [any CodingKey] { document.codingPath(to: Int(arrayIndex)) }
    var count: Int? { Int(elementCount) }
    var isAtEnd: Bool { position >= elementCount }
    var currentIndex: Int { Int(position) }

    /// Decodes the next element with `read` and moves past it only if that succeeds.
    private mutating func next<T>(_ read: (DecodingDocument, Int) throws -> T) throws -> T {
        try requireElement()
        let value = try read(document, Int(cursor))
        advance()
        return value
    }

    private func requireElement() throws(JSONDecodingError) {
        guard !isAtEnd else {
            throw document.failure(
                .valueNotFound,
                inContainer: Int(arrayIndex),
                at: IndexOrNameKey(intValue: Int(position)),
                "the array has no more elements"
            )
        }
    }

    private mutating func advance() {
        cursor = UInt32(truncatingIfNeeded: document.index(after: Int(cursor)))
        position += 1
    }

    /// Moves past the next element only if it is null, as the protocol requires.
    mutating func decodeNil() throws -> Bool {
        try requireElement()
        guard document.isNull(at: Int(cursor)) else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.decodeBool(at: $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try next { try $0.decodeString(at: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.decodeDouble(at: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.decodeFloat(at: $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.decodeInteger(type, at: $1) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next { try $0.decodeValue(type, at: $1) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next { try TapeDecoder(document: $0, index: $1).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { try TapeDecoder(document: $0, index: $1).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next { TapeDecoder(document: $0, index: $1) }
    }
}
