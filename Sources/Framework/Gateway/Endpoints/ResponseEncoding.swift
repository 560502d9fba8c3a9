import JSONCoding

/// The one place client bodies are encoded, so every endpoint writes the same JSON dialect.
enum ResponseEncoding {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        try JSONByteEncoder().encode(value)
    }

    /// `body`, which must encode as an object, with `"degraded":[…]` as its last member, so
    /// response types do not each declare it.
    static func encode(_ body: some Encodable, degraded: [String]) throws -> [UInt8] {
        try JSONByteEncoder().encode(body, addingMember: "degraded", strings: degraded)
    }
}
