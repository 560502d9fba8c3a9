/// Decodes `Decodable` values from JSON given as UTF-8 bytes.
///
/// One pass validates the document (strict RFC 8259) and indexes it into a compact tape of byte
/// offsets; the model's `init(from:)` then reads straight from the bytes. Numbers are strict too:
/// an integer property rejects `1.0`, `1e2` and values that overflow its type. URLs decode from
/// strings as with Foundation's `JSONDecoder`; there are no key or date strategies.
///
/// ```swift
/// let dishes = try JSONByteDecoder().decode([Dish].self, from: body)
/// ```
public struct JSONByteDecoder: Sendable {
    /// The deepest nesting of arrays and objects accepted, so hostile input cannot exhaust the stack.
    public static let maximumDepth = 512

    public init() {}

    /// Decodes a value of type `T` from a complete JSON document.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(JSONDecodingError) -> T {
        let result: Result<T, JSONDecodingError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONDecodingError) in try decode(type, from: buffer) }
        }
        return try result.get()
    }

    /// Decodes a value of type `T` from a complete JSON document; the bytes are only read during the call.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws(JSONDecodingError) -> T {
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONDecodingError(reason: .invalidSyntax, message: "the document is empty", byteOffset: 0)
        }
        let base = start.assumingMemoryBound(to: UInt8.self)
        let tape = try TapeParser.parse(base, count: bytes.count, maximumDepth: Self.maximumDepth)
        defer { tape.deallocate() }
        do {
            return try DecodingDocument.withDocument(tape: UnsafeBufferPointer(tape), base: base) { try $0.decodeValue(type, at: 0) }
        } catch let error as JSONDecodingError {
            throw error
        } catch let error as DecodingError {
            throw Self.converting(error)
        } catch {
            throw JSONDecodingError(reason: .invalidValue, message: "init(from:) threw \(Swift.type(of: error))")
        }
    }

    /// Turns an error a model threw into our error type. Its debug description is dropped: the
    /// standard library's own messages quote input (such as an invalid enum raw value).
    private static func converting(_ error: DecodingError) -> JSONDecodingError {
        switch error {
        case .typeMismatch(let type, let context):
            return JSONDecodingError(reason: .typeMismatch, message: "expected \(type)", codingPath: CodingPathRendering.render(context.codingPath))
        case .valueNotFound(let type, let context):
            return JSONDecodingError(reason: .valueNotFound, message: "expected \(type), found null", codingPath: CodingPathRendering.render(context.codingPath))
        case .keyNotFound(let key, let context):
            return JSONDecodingError(reason: .keyNotFound, message: "a required key is missing", codingPath: CodingPathRendering.render(context.codingPath + [key]))
        case .dataCorrupted(let context):
            return JSONDecodingError(reason: .invalidValue, message: "the model rejected the value", codingPath: CodingPathRendering.render(context.codingPath))
        @unknown default:
            return JSONDecodingError(reason: .invalidValue, message: "the model rejected the value")
        }
    }
}
