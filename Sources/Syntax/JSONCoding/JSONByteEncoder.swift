/// Encodes `Encodable` values as compact JSON in UTF-8 bytes.
///
/// Bytes are written as the model encodes, with object keys in encode order. The text matches
/// Foundation's `JSONEncoder` with `.withoutEscapingSlashes` (apart from key order, which
/// Foundation on Linux does not keep): numbers print as `7.5`, `10`, `1e+16`; strings escape
/// quotes, backslashes and control characters only; URLs are written as strings.
/// `encode(_:forKey:)` of a nil optional writes `null`, `encodeIfPresent` skips the key.
///
/// ```swift
/// var body: [UInt8] = []
/// try JSONByteEncoder().encode(response, into: &body)
/// ```
public struct JSONByteEncoder: Sendable {
    /// The scratch buffer's first size: enough for typical API responses without growing.
    private static let initialCapacity = 2048

    public init() {}

    /// Encodes `value` as a complete JSON document.
    public func encode<T: Encodable>(_ value: T) throws(JSONEncodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(value, into: &bytes)
        return bytes
    }

    /// Appends `value` as a complete JSON document to `bytes`; on failure `bytes` is left as it was.
    public func encode<T: Encodable>(_ value: T, into bytes: inout [UInt8]) throws(JSONEncodingError) {
        try encode(value, addingMember: nil, into: &bytes)
    }

    /// Encodes `value`, which must encode as an object, with one more member written last: `key`
    /// and the array of `strings`, as if the value's own `encode(to:)` had added it. Cheaper than
    /// a wrapper whose `encode(to:)` asks for the object's container a second time.
    package func encode<T: Encodable>(_ value: T, addingMember key: String, strings: [String]) throws(JSONEncodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(value, addingMember: (key, strings), into: &bytes)
        return bytes
    }

    private func encode<T: Encodable>(
        _ value: T, addingMember member: (key: String, strings: [String])?, into bytes: inout [UInt8]
    ) throws(JSONEncodingError) {
        var state = EncodingState(capacity: Self.initialCapacity)
        defer { state.deallocate() }
        do {
            // The state lives in this frame for exactly the duration of encoding.
            try withUnsafeMutablePointer(to: &state) { try EncodingContext(state: $0).encodeDocument(value, addingMember: member) }
        } catch {
            throw Self.converting(error)
        }
        state.writer.append(to: &bytes)
    }

    private static func converting(_ error: any Error) -> JSONEncodingError {
        switch error {
        case let error as JSONEncodingError:
            return error
        case EncodingError.invalidValue(_, let context):
            return JSONEncodingError(
                reason: .invalidValue,
                message: "the model rejected the value",
                codingPath: CodingPathRendering.render(context.codingPath)
            )
        default:
            return JSONEncodingError(reason: .invalidValue, message: "encode(to:) threw \(type(of: error))")
        }
    }
}
