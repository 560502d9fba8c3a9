import JSONCoding

/// The one place where default JSON coding happens, so the coder behind it can change in one line.
enum JSONBody {
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(UpstreamError) -> Value {
        do {
            return try JSONByteDecoder().decode(Value.self, from: bytes)
        } catch {
            // JSONDecodingError's description names the failure and the coding path, never body content.
            throw .decodingFailed(reason: "body is not a valid \(Value.self): \(error)")
        }
    }

    static func encode(_ value: some Encodable) throws(UpstreamError) -> [UInt8] {
        do {
            return try JSONByteEncoder().encode(value)
        } catch {
            throw .invalidRequest(reason: "body cannot be encoded as JSON")
        }
    }
}
