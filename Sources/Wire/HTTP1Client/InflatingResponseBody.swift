import HTTP1

/// A response body in a content coding, inflated as it arrives: the decoded body is held to the
/// limit while it grows, and so are the encoded bytes, since a stream of empty deflate blocks
/// grows nothing.
struct InflatingResponseBody: ResponseBodySink {
    /// `gzip` or `deflate`, for errors.
    let codingName: String
    let maximumBytes: Int
    private let inflater: Inflater
    private var bytes: [UInt8] = []
    private var encodedBytes = 0
    /// Chunk data of the current piece of a chunked body, on its way to the inflater.
    private var chunkData: [UInt8] = []

    /// - Parameter coding: `.gzip` or `.deflate`.
    init(coding: ContentCoding, maximumBytes: Int) throws(HTTPClientError) {
        codingName = coding == .gzip ? "gzip" : "deflate"
        self.maximumBytes = maximumBytes
        do {
            inflater = try Inflater(format: coding == .gzip ? .gzip : .deflate)
        } catch {
            throw Self.failure(error, coding: codingName)
        }
    }

    mutating func take(_ next: UnsafeRawBufferPointer) throws(HTTPClientError) {
        guard next.count <= maximumBytes - encodedBytes else { throw .bodyTooLarge(limit: maximumBytes) }
        encodedBytes += next.count
        do {
            try inflater.inflate(next, appendingTo: &bytes, maximumOutputBytes: maximumBytes)
        } catch {
            throw Self.failure(error, coding: codingName)
        }
    }

    mutating func takeChunks(
        of next: UnsafeRawBufferPointer, decodedBy decoder: inout ChunkedBodyDecoder
    ) throws(HTTPClientError) -> (consumed: Int, isComplete: Bool) {
        let result: (consumed: Int, isComplete: Bool)
        do {
            result = try decoder.decode(next, into: &chunkData)
        } catch {
            throw ClientConnection.clientError(error, limit: maximumBytes)
        }
        // Moved out while inflating, so `take` may change `self`; moved back to keep its capacity.
        var data: [UInt8] = []
        swap(&data, &chunkData)
        // `Array.withUnsafeBytes` rethrows untyped errors; a `Result` keeps the type.
        let taken = data.withUnsafeBytes { data in Result { () throws(HTTPClientError) in try take(data) } }
        try taken.get()
        data.removeAll(keepingCapacity: true)
        chunkData = data
        return result
    }

    /// The inflated body; an empty body (a `Content-Length: 0`, a 204) decodes to nothing.
    mutating func finish() throws(HTTPClientError) -> [UInt8] {
        guard inflater.isFinished || encodedBytes == 0 else { throw .undecodableBody(reason: "\(codingName) stream truncated") }
        return bytes
    }

    private static func failure(_ error: InflateError, coding: String) -> HTTPClientError {
        switch error {
        case .corrupt: .undecodableBody(reason: "\(coding) stream corrupt")
        case .outputTooLarge(let limit): .bodyTooLarge(limit: limit)
        case .outOfMemory: .undecodableBody(reason: "no memory to inflate \(coding)")
        }
    }
}
