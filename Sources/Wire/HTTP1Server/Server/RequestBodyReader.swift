import HTTP1
import HTTPBasics
import NetworkRuntime

/// A request body read from the client's connection as its handler asks for it: the source of
/// `HTTPRequest.bodyStream`.
///
/// It holds the connection's read buffer while the handler runs (bytes of the body that came with
/// the head are read first) and gives it back afterwards, with any pipelined bytes after the body.
/// Each read waits at most the server's body gap; a piece is at most one read, so memory stays at
/// one buffer whatever the body's size (`StreamingReadRoom` sizes it).
///
/// `@unchecked Sendable`: its mutable state is touched by one task at a time. The handler reads
/// it (one reader at a time, the stream's contract) while the connection's task awaits the
/// response, and the connection takes the buffer back only after the response is returned.
/// `cancel()` only sets a flag that the next read checks.
final class RequestBodyReader: HTTPBodySource, @unchecked Sendable {
    private let socket: AsyncSocket
    private let gap: Duration
    private var buffer: ReadBuffer
    private var remaining: Int
    private var decoder: ChunkedBodyDecoder?
    private var room = StreamingReadRoom()
    private var isCancelled = false
    /// Whether the body was read to its end, so that the connection may serve another request.
    private(set) var isComplete = false

    init(socket: AsyncSocket, framing: BodyFraming, buffer: consuming ReadBuffer, gap: Duration) {
        self.socket = socket
        self.gap = gap
        self.buffer = buffer
        switch framing {
        case .none:
            remaining = 0
            isComplete = true
        case .contentLength(let length):
            remaining = length
            isComplete = length == 0
        case .chunked:
            remaining = 0
            decoder = ChunkedBodyDecoder(maximumBodyBytes: .max)
        }
    }

    /// The read buffer, back to the connection once the handler is done.
    func takeBuffer() -> ReadBuffer {
        isCancelled = true
        var taken = ReadBuffer(capacity: 64)
        swap(&taken, &buffer)
        taken.shrinkIfEmpty()
        return taken
    }

    func next() async throws(HTTPBodyError) -> [UInt8]? {
        guard !isCancelled else { throw .cancelled }
        while !isComplete {
            if !buffer.isEmpty, let piece = try takePiece() { return piece }
            if isComplete { break }
            room.prepare(&buffer)
            let count: Int
            do {
                count = try await socket.read(into: &buffer, deadline: .now + gap)
            } catch {
                isCancelled = true
                throw error == .timedOut ? .timedOut : error == .cancelled ? .cancelled : .failed(reason: "client connection failed: \(error)")
            }
            guard count > 0 else {
                isCancelled = true
                throw .failed(reason: "the client closed the connection inside the body")
            }
            room.record(read: count)
        }
        return nil
    }

    func cancel() {
        isCancelled = true
    }

    /// Takes what the buffer holds of the body: a piece, or nil when it held only framing.
    private func takePiece() throws(HTTPBodyError) -> [UInt8]? {
        guard var decoder else {
            let taken = min(remaining, buffer.readableCount)
            let piece = ChunkFraming.piece(buffer.take(upTo: taken))
            remaining -= taken
            isComplete = remaining == 0
            return piece.isEmpty ? nil : piece
        }
        var piece: [UInt8] = []
        let result: (consumed: Int, isComplete: Bool)
        do {
            result = try buffer.withUnsafeReadableBytes { bytes throws(HTTPParseError) in try decoder.decode(bytes, into: &piece) }
        } catch {
            isCancelled = true
            throw .failed(reason: "invalid chunked body: \(error.reason)")
        }
        self.decoder = decoder
        buffer.consume(result.consumed)
        isComplete = result.isComplete
        return piece.isEmpty ? nil : piece
    }
}
