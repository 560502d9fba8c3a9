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

    /// Writes a request and reads its whole response, all before `deadline`.
    ///
    /// A body in a content coding is inflated as it arrives when the request asked for one
    /// (`acceptsCompression`), and the response then carries no `Content-Encoding` and no
    /// `Content-Length`; any other coding fails. Any error leaves the connection unfit for reuse;
    /// the caller closes it.
    func exchange(
        head: [UInt8],
        body: [UInt8],
        method: HTTPMethod,
        acceptsCompression: Bool,
        limits: HTTPLimits,
        deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) -> ResponseMessage {
        isReusable = false
        hasReceivedResponseBytes = false
        do {
            try await socket.write(head, body, deadline: deadline)
        } catch {
            throw Self.clientError(error)
        }
        var parser = ResponseHeadParser(limits: limits)
        var responseHead = try await readHead(parser: &parser, method: method, deadline: deadline)
        while responseHead.status.code < 200 {
            guard responseHead.status.code != 101 else { throw .invalidResponse(reason: "unexpected protocol switch") }
            responseHead = try await readHead(parser: &parser, method: method, deadline: deadline)
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
        return ResponseMessage(status: responseHead.status, headers: responseHead.headers, body: responseBody)
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
                ResponseMessage(status: responseHead.status, headers: responseHead.headers), SwitchedConnection(socket: socket, bufferedBytes: buffered))
        }
        let announced = if case .contentLength(let length) = responseHead.framing { length } else { 0 }
        var sink = PlainResponseBody(maximumBytes: limits.maximumBodyBytes, expectedBytes: announced)
        try await readBody(framing: responseHead.framing, limits: limits, into: &sink, deadline: deadline)
        return .answered(ResponseMessage(status: responseHead.status, headers: responseHead.headers, body: sink.finish()))
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
