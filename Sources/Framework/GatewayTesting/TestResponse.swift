import HTTPBasics
import JSONCoding

/// A gateway's answer as a test reads it.
public struct TestResponse: Sendable {
    /// The status code, such as 200 or 404.
    public let status: Int
    /// Every header field, such as `X-Gateway-Completed`.
    public let headers: HTTPHeaders
    /// The body as received.
    public let body: [UInt8]

    /// The body as UTF-8 text: for JSON, the exact bytes to compare.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded from JSON.
    public func json<Value: Decodable>(as type: Value.Type = Value.self) throws -> Value {
        try JSONByteDecoder().decode(Value.self, from: body)
    }
}
