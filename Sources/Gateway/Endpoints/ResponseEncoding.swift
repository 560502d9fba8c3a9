import JSONCoding

/// The one place client bodies are encoded, so every endpoint writes the same JSON dialect.
enum ResponseEncoding {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        try JSONByteEncoder().encode(value)
    }
}
