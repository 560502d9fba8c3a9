import HTTP1
import HTTPBasics
import NetworkRuntime

/// One keep-alive connection of `HTTPClient`: a socket, its read buffer, and one request and
/// response exchange at a time.
///
/// `@unchecked Sendable`: the mutable state (`buffer`, the flags) is touched only by the one
/// request that holds the connection. The pool lends a connection to one caller at a time and
/// every hand-over between tasks goes through the client's `Mutex` or a continuation, both of
/// which order the previous holder's writes before the next holder's reads.
final class ClientConnection: @unchecked Sendable {
    private let socket: AsyncSocket
    /// Unchecked exclusivity: only the task holding the connection touches the buffer (see
    /// above) and no access nests in another, so the run-time check of every access (an inout
    /// one held across each read's await) would only cost time.
    @exclusivity(unchecked)
    private var buffer = ReadBuffer(capacity: 4096)
    /// Whether any byte of the current response arrived: once one has, the request is no longer
    /// safe to retry on another connection.
    private(set) var hasReceivedResponseBytes = false
    /// Whether the last exchange left the connection fit for another request: a complete
    /// response that both sides keep alive, and no stray bytes after it.
    private(set) var isReusable = false

    init(socket: AsyncSocket) {
        self.socket = socket
    }

    /// Whether the server hung up while the connection sat idle.
    var isPeerClosed: Bool { socket.isPeerClosed }

    func close() {
        socket.close()
    }

    /// Writes a request and reads its whole response, all before `deadline`; with a streamed
    /// request body, each write of it waits at most `timeout`, and the answer's head then has
    /// `timeout` from the body's end: an upload lasts as long as its sender keeps it moving.
    ///
    /// A body in a content coding is inflated as it arrives when the request asked for one
    /// (`acceptsCompression`), and the response then carries no `Content-Encoding` and no
    /// `Content-Length`; any other coding fails. Any error leaves the connection unfit for reuse;
    /// the caller closes it.
    ///
    /// With `streaming`, a body the head says is longer than its threshold, or of unknown length,
    /// is not read here: the message's `bodyStream` reads it, and hands the connection to
    /// `streaming`'s `release` once it is read to its end, failed or dropped.
    func exchange(
        head: [UInt8],
        body: [UInt8],
        bodyStream: HTTPBodyStream? = nil,
        method: HTTPMethod,
        acceptsCompression: Bool,
        limits: HTTPLimits,
        streaming: StreamingRelease? = nil,
        timeout: Duration,
        deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) -> HTTPResponse {
        isReusable = false
        hasReceivedResponseBytes = false
        do {
            try await socket.write(head, body, deadline: deadline)
        } catch {
            throw Self.clientError(error)
        }
        var deadline = deadline
        if let bodyStream {
            try await send(bodyStream, gap: timeout)
            deadline = HTTPClient.deadline(after: timeout)
        }
        // A streamed body's length is not held to the limit of bodies read whole.
        var parser = ResponseHeadParser(limits: streaming == nil ? limits : limits.withAnyBodyLength)
        var responseHead = try await readHead(parser: &parser, method: method, deadline: deadline)
        while responseHead.status.code < 200 {
            guard responseHead.status.code != 101 else { throw .invalidResponse(reason: "unexpected protocol switch") }
            responseHead = try await readHead(parser: &parser, method: method, deadline: deadline)
        }
        if let streaming, streaming.streams(responseHead.framing) {
            return try streamed(responseHead, acceptsCompression: acceptsCompression, limits: limits, release: streaming)
        }
        let responseBody: [UInt8]
        if responseHead.contentCoding == .identity {
            let announced = if case .contentLength(let length) = responseHead.framing { length } else { 0 }
            var sink = PlainResponseBody(maximumBytes: limits.maximumBodyBytes, expectedBytes: announced)
            try await readBody(framing: responseHead.framing, limits: limits, into: &sink, deadline: deadline)
            responseBody = sink.finish()
        } else {
            responseBody = try await readInflatedBody(of: &responseHead, acceptsCompression: acceptsCompression, limits: limits, deadline: deadline)
        }
        isReusable = responseHead.keepAlive && buffer.isEmpty
        buffer.shrinkIfEmpty()
        return HTTPResponse(status: responseHead.status, headers: responseHead.headers, body: responseBody)
    }

    /// Sends a request body as `stream` reads it: chunked unless the stream knows its length,
    /// each piece written as it arrives, each write waiting at most `gap`. The stream's own
    /// failure fails the exchange as `.requestBodyFailed`.
    private func send(_ stream: HTTPBodyStream, gap: Duration) async throws(HTTPClientError) {
        let chunked = stream.length == nil
        var sizeLine: [UInt8] = []
        var sent = 0
        while true {
            var piece: [UInt8]
            do {
                guard let next = try await stream.next() else { break }
                piece = next
            } catch {
                throw error == .cancelled && Task.isCancelled ? .cancelled : .requestBodyFailed(error)
            }
            if let length = stream.length, piece.count > length - sent {
                stream.cancel()
                throw .requestBodyFailed(.failed(reason: "the body is longer than its length"))
            }
            sent += piece.count
            if chunked {
                sizeLine.removeAll(keepingCapacity: true)
                ChunkFraming.wrap(&piece, sizeLine: &sizeLine)
            }
            do {
                try await socket.write(sizeLine, piece, deadline: HTTPClient.deadline(after: gap))
            } catch {
                stream.cancel()
                throw Self.clientError(error)
            }
        }
        if let length = stream.length, sent != length {
            throw .requestBodyFailed(.failed(reason: "the body is shorter than its length"))
        }
        if chunked {
            do {
                try await socket.write(ChunkFraming.lastChunk, deadline: HTTPClient.deadline(after: gap))
            } catch {
                throw Self.clientError(error)
            }
        }
    }

    /// The response of `head` with its body left to a stream: the same framing, coding and
    /// checks as a body read whole, but each piece read when the stream's reader asks for it.
    @inline(never)
    private func streamed(
        _ head: ResponseHead, acceptsCompression: Bool, limits: HTTPLimits, release: StreamingRelease
    ) throws(HTTPClientError) -> HTTPResponse {
        var head = head
        var inflater: Inflater?
        switch head.contentCoding {
        case .identity:
            break
        case .gzip where acceptsCompression, .deflate where acceptsCompression:
            do {
                inflater = try Inflater(format: head.contentCoding == .gzip ? .gzip : .deflate)
            } catch {
                throw .undecodableBody(reason: "no memory to inflate")
            }
            head.headers.remove("Content-Encoding")
            head.headers.remove("Content-Length")
        default:
            throw .undecodableBody(reason: "content coding \(ContentCoding.name(in: head.headers)) was not asked for")
        }
        let progress = BodyProgress(framing: head.framing, keepAlive: head.keepAlive, inflater: inflater, metadataLimit: limits.maximumHeaderBytes)
        let length: Int? = if inflater == nil, case .contentLength(let length) = head.framing { length } else { nil }
        let reader = ResponseBodyReader(connection: self, progress: progress, release: release)
        return HTTPResponse(status: head.status, headers: head.headers, bodyStream: HTTPBodyStream(length: length, source: reader))
    }

    /// Where a streamed response body stands: what is left of it and how it is decoded.
    struct BodyProgress {
        var remaining: Int
        var decoder: ChunkedBodyDecoder?
        let untilClose: Bool
        let keepAlive: Bool
        let inflater: Inflater?
        var isComplete: Bool
        var room = StreamingReadRoom()

        init(framing: ResponseHead.Framing, keepAlive: Bool, inflater: Inflater?, metadataLimit: Int) {
            self.keepAlive = keepAlive
            self.inflater = inflater
            remaining = 0
            untilClose = framing == .untilClose
            isComplete = false
            switch framing {
            case .none:
                isComplete = true
            case .contentLength(let length):
                remaining = length
                isComplete = length == 0
            case .chunked:
                decoder = ChunkedBodyDecoder(maximumBodyBytes: .max, maximumMetadataBytes: metadataLimit)
            case .untilClose:
                break
            }
        }
    }

    /// The next piece of a streamed body (nil at its end, when the connection is fit for reuse
    /// if both sides keep it alive), waiting for it until `deadline`.
    func nextPiece(of progress: inout BodyProgress, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> [UInt8]? {
        while !progress.isComplete {
            if !buffer.isEmpty, let piece = try takePiece(of: &progress) { return piece }
            if progress.isComplete { break }
            progress.room.prepare(&buffer)
            let before = buffer.readableCount
            guard try await fill(deadline: deadline) else {
                guard progress.untilClose else { throw .invalidResponse(reason: "connection closed inside the body") }
                progress.isComplete = true
                if let inflater = progress.inflater, !inflater.isFinished { throw .undecodableBody(reason: "compressed stream truncated") }
                return nil
            }
            progress.room.record(read: buffer.readableCount - before)
        }
        if let inflater = progress.inflater, !inflater.isFinished { throw .undecodableBody(reason: "compressed stream truncated") }
        isReusable = progress.keepAlive && !progress.untilClose && buffer.isEmpty
        buffer.shrinkIfEmpty()
        return nil
    }



    /// Takes what the buffer holds of the body, decoded: a piece, or nil when it held only
    /// framing (or compressed bytes that inflate to nothing yet).
    private func takePiece(of progress: inout BodyProgress) throws(HTTPClientError) -> [UInt8]? {
        var raw: [UInt8] = []
        if var decoder = progress.decoder {
            let result = try buffer.withUnsafeReadableBytes { (bytes) throws(HTTPClientError) in
                do throws(HTTPParseError) {
                    return try decoder.decode(bytes, into: &raw)
                } catch {
                    throw Self.clientError(error, limit: .max)
                }
            }
            buffer.consume(result.consumed)
            progress.decoder = decoder
            progress.isComplete = result.isComplete
        } else {
            let taken = progress.untilClose ? buffer.readableCount : min(progress.remaining, buffer.readableCount)
            raw = ChunkFraming.piece(buffer.take(upTo: taken))
            if !progress.untilClose {
                progress.remaining -= taken
                progress.isComplete = progress.remaining == 0
            }
        }
        guard let inflater = progress.inflater, !raw.isEmpty else { return raw.isEmpty ? nil : raw }
        var inflated: [UInt8] = []
        // `Array.withUnsafeBytes` rethrows untyped errors; a `Result` keeps the type.
        let outcome = raw.withUnsafeBytes { bytes in
            Result { () throws(InflateError) in try inflater.inflate(bytes, appendingTo: &inflated, maximumOutputBytes: .max) }
        }
        guard case .success = outcome else { throw .undecodableBody(reason: "compressed stream corrupt") }
        return inflated.isEmpty ? nil : inflated
    }

    /// Writes a request asking to switch protocols (`Upgrade`) and reads the answer's head, all
    /// before `deadline`: a `101` hands the socket over, with the bytes read past the head; any
    /// other final answer is read whole, its body as it is (the request asked for no coding), and
    /// the caller closes the connection.
    func switchProtocols(head: [UInt8], limits: HTTPLimits, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> UpgradeAnswer {
        do {
            try await socket.write(head, deadline: deadline)
        } catch {
            throw Self.clientError(error)
        }
        var parser = ResponseHeadParser(limits: limits)
        var responseHead = try await readHead(parser: &parser, method: .get, deadline: deadline)
        while responseHead.status.code < 200, responseHead.status.code != 101 {
            responseHead = try await readHead(parser: &parser, method: .get, deadline: deadline)
        }
        guard responseHead.status.code != 101 else {
            let buffered = Array(buffer.take(upTo: buffer.readableCount))
            return .switched(
                HTTPResponse(status: responseHead.status, headers: responseHead.headers), SwitchedConnection(socket: socket, bufferedBytes: buffered))
        }
        let announced = if case .contentLength(let length) = responseHead.framing { length } else { 0 }
        var sink = PlainResponseBody(maximumBytes: limits.maximumBodyBytes, expectedBytes: announced)
        try await readBody(framing: responseHead.framing, limits: limits, into: &sink, deadline: deadline)
        return .answered(HTTPResponse(status: responseHead.status, headers: responseHead.headers, body: sink.finish()))
    }

    /// Inflates the body of `head`, whose coding is not identity: one the request asked for, else
    /// the response fails naming it. The fields that described the encoded body go.
    // Never inlined: its sink would enlarge the async frame of `exchange`, which every call in
    // flight holds while it waits for the head.
    @inline(never)
    private func readInflatedBody(
        of head: inout ResponseHead, acceptsCompression: Bool, limits: HTTPLimits, deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) -> [UInt8] {
        var sink: InflatingResponseBody
        switch head.contentCoding {
        case .gzip where acceptsCompression, .deflate where acceptsCompression:
            sink = try InflatingResponseBody(coding: head.contentCoding, maximumBytes: limits.maximumBodyBytes)
        default:
            throw .undecodableBody(reason: "content coding \(ContentCoding.name(in: head.headers)) was not asked for")
        }
        try await readBody(framing: head.framing, limits: limits, into: &sink, deadline: deadline)
        head.headers.remove("Content-Encoding")
        head.headers.remove("Content-Length")
        return try sink.finish()
    }

    /// Reads the body `framing` delimits into `sink`.
    // Inlined: one async frame less for every response.
    @inline(__always)
    private func readBody<Sink: ResponseBodySink>(
        framing: ResponseHead.Framing, limits: HTTPLimits, into sink: inout Sink, deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) {
        switch framing {
        case .none:
            break
        case .contentLength(let length):
            try await readBody(length: length, into: &sink, deadline: deadline)
        case .chunked:
            try await readChunkedBody(limits: limits, into: &sink, deadline: deadline)
        case .untilClose:
            try await readBodyUntilClose(into: &sink, deadline: deadline)
        }
    }

    private func readHead(
        parser: inout ResponseHeadParser,
        method: HTTPMethod,
        deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) -> ResponseHead {
        while true {
            if !buffer.isEmpty {
                let parsed: ParsedResponseHead?
                do {
                    parsed = try buffer.withUnsafeReadableBytes { (bytes) throws(HTTPParseError) in
                        try parser.parse(bytes, requestMethod: method)
                    }
                } catch {
                    throw Self.clientError(error, limit: parser.limits.maximumBodyBytes)
                }
                if let parsed {
                    buffer.consume(parsed.length)
                    return parsed.head
                }
            }
            guard try await fill(deadline: deadline) else {
                throw hasReceivedResponseBytes ? .invalidResponse(reason: "connection closed inside the response head") : .connectionClosed
            }
        }
    }

    private func readBody<Sink: ResponseBodySink>(
        length: Int, into sink: inout Sink, deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) {
        var remaining = length
        while true {
            let taken = min(buffer.readableCount, remaining)
            try buffer.withUnsafeReadableBytes { (bytes) throws(HTTPClientError) in
                try sink.take(UnsafeRawBufferPointer(rebasing: bytes[..<taken]))
            }
            buffer.consume(taken)
            remaining -= taken
            if remaining == 0 { return }
            guard try await fill(deadline: deadline) else {
                throw .invalidResponse(reason: "connection closed inside the body")
            }
        }
    }

    /// Reads a chunked body into `sink`; its trailer fields, which a client has no use for, are
    /// dropped, and held to the head's size limit.
    private func readChunkedBody<Sink: ResponseBodySink>(
        limits: HTTPLimits, into sink: inout Sink, deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) {
        var decoder = ChunkedBodyDecoder(maximumBodyBytes: sink.maximumBytes, maximumMetadataBytes: limits.maximumHeaderBytes)
        while true {
            if !buffer.isEmpty {
                let result = try buffer.withUnsafeReadableBytes { (bytes) throws(HTTPClientError) in
                    try sink.takeChunks(of: bytes, decodedBy: &decoder)
                }
                buffer.consume(result.consumed)
                if result.isComplete { return }
            }
            guard try await fill(deadline: deadline) else {
                throw .invalidResponse(reason: "connection closed inside a chunked body")
            }
        }
    }

    private func readBodyUntilClose<Sink: ResponseBodySink>(into sink: inout Sink, deadline: ContinuousClock.Instant) async throws(HTTPClientError) {
        repeat {
            try buffer.withUnsafeReadableBytes { (bytes) throws(HTTPClientError) in try sink.take(bytes) }
            buffer.consume(buffer.readableCount)
        } while try await fill(deadline: deadline)
    }

    /// Reads more bytes into the buffer; returns false when the server closed the connection.
    // Inlined: one async frame less for every read of a response.
    @inline(__always)
    private func fill(deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> Bool {
        do {
            let count = try await socket.read(into: &buffer, deadline: deadline)
            if count > 0 { hasReceivedResponseBytes = true }
            return count > 0
        } catch {
            throw Self.clientError(error)
        }
    }

    static func clientError(_ error: SocketError) -> HTTPClientError {
        switch error {
        case .timedOut: .timedOut
        case .cancelled: .cancelled
        case .closed: .connectionClosed
        case .unresolvable, .failed, .tlsFailed: .connectionFailed(reason: error.description)
        case .certificateRejected(let reason): .certificateRejected(reason: reason)
        }
    }

    static func clientError(_ error: HTTPParseError, limit: Int) -> HTTPClientError {
        error.status == .contentTooLarge ? .bodyTooLarge(limit: limit) : .invalidResponse(reason: error.reason)
    }
}

extension HTTPLimits {
    /// These limits, but for the body's, which is lifted.
    fileprivate var withAnyBodyLength: HTTPLimits {
        var limits = self
        limits.maximumBodyBytes = .max
        return limits
    }
}
