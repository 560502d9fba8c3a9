import HTTP1

/// A response body kept as it arrives, up to a limit.
struct PlainResponseBody: ResponseBodySink {
    let maximumBytes: Int
    private var bytes: [UInt8] = []

    /// - Parameter expectedBytes: the length the head announced, reserved up front (it is within the limit).
    init(maximumBytes: Int, expectedBytes: Int) {
        self.maximumBytes = maximumBytes
        bytes.reserveCapacity(expectedBytes)
    }

    mutating func take(_ next: UnsafeRawBufferPointer) throws(HTTPClientError) {
        guard next.count <= maximumBytes - bytes.count else { throw .bodyTooLarge(limit: maximumBytes) }
        bytes.append(contentsOf: next)
    }

    mutating func takeChunks(
        of next: UnsafeRawBufferPointer, decodedBy decoder: inout ChunkedBodyDecoder
    ) throws(HTTPClientError) -> (consumed: Int, isComplete: Bool) {
        do {
            return try decoder.decode(next, into: &bytes)
        } catch {
            throw ClientConnection.clientError(error, limit: maximumBytes)
        }
    }

    mutating func finish() -> [UInt8] {
        bytes
    }
}
