import HTTP1

/// Where `ClientConnection` puts a response body's bytes as they come off the wire, after any
/// transfer coding: kept as they are, or inflated. Either way the body it ends with is held to the
/// request's limit while it grows.
protocol ResponseBodySink {
    /// The largest body it accepts, decoded or not.
    var maximumBytes: Int { get }
    /// Takes the next bytes of the body.
    mutating func take(_ bytes: UnsafeRawBufferPointer) throws(HTTPClientError)
    /// Takes the chunk data `decoder` finds in `bytes`, the next bytes of a chunked body, and
    /// returns how many of them it consumed and whether the last chunk has been read.
    mutating func takeChunks(
        of bytes: UnsafeRawBufferPointer, decodedBy decoder: inout ChunkedBodyDecoder
    ) throws(HTTPClientError) -> (consumed: Int, isComplete: Bool)
    /// The whole body, once every byte has been taken.
    mutating func finish() throws(HTTPClientError) -> [UInt8]
}
