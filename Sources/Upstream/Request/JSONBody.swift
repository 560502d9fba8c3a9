import JSONCoding

/// The one place where default JSON decoding happens, so the decoder behind it can change in one line.
enum JSONBody {
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(UpstreamError) -> Value {
        do {
            return try JSONByteDecoder().decode(Value.self, from: bytes)
        } catch {
            // JSONDecodingError's description names the failure and the coding path, never body content.
            throw .decodingFailed(reason: "body is not a valid \(Value.self): \(error)")
        }
    }
}
