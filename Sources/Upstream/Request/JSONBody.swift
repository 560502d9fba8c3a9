import Foundation

/// The one place where default JSON decoding happens, so the decoder behind it can change in one line.
enum JSONBody {
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(UpstreamError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(bytes))
        } catch {
            // The reason names the expected type only: upstream bodies never reach errors or logs.
            throw .decodingFailed(reason: "body is not a valid \(Value.self)")
        }
    }
}
