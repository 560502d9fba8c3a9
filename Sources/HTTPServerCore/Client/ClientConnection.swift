import HTTPBasics

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
    /// Any error leaves the connection unfit for reuse; the caller closes it.
    func exchange(
        head: [UInt8],
        body: [UInt8],
        method: HTTPMethod,
        limits: HTTPLimits,
        deadline: ContinuousClock.Instant
    ) async throws(HTTPClientError) -> HTTPClientResponse {
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
        switch responseHead.framing {
        case .none:
            responseBody = []
        case .contentLength(let length):
            responseBody = try await readBody(length: length, deadline: deadline)
        case .chunked:
            responseBody = try await readChunkedBody(limits: limits, deadline: deadline)
        case .untilClose:
            responseBody = try await readBodyUntilClose(maximumBytes: limits.maximumBodyBytes, deadline: deadline)
        }
        isReusable = responseHead.keepAlive && buffer.isEmpty
        buffer.shrinkIfEmpty()
        return HTTPClientResponse(status: responseHead.status, headers: responseHead.headers, body: responseBody)
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

    private func readBody(length: Int, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> [UInt8] {
        var body = [UInt8]()
        body.reserveCapacity(length)
        while true {
            let taken = min(buffer.readableCount, length - body.count)
            buffer.withUnsafeReadableBytes { bytes in
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<taken]))
            }
            buffer.consume(taken)
            if body.count == length { return body }
            guard try await fill(deadline: deadline) else {
                throw .invalidResponse(reason: "connection closed inside the body")
            }
        }
    }

    /// Reads a chunked body; its trailer fields, which a client has no use for, are dropped, and
    /// held to the head's size limit.
    private func readChunkedBody(limits: HTTPLimits, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> [UInt8] {
        let maximumBytes = limits.maximumBodyBytes
        var decoder = ChunkedBodyDecoder(maximumBodyBytes: maximumBytes, maximumMetadataBytes: limits.maximumHeaderBytes)
        var body = [UInt8]()
        while true {
            if !buffer.isEmpty {
                let result: (consumed: Int, isComplete: Bool)
                do {
                    result = try buffer.withUnsafeReadableBytes { (bytes) throws(HTTPParseError) in
                        try decoder.decode(bytes, into: &body)
                    }
                } catch {
                    throw Self.clientError(error, limit: maximumBytes)
                }
                buffer.consume(result.consumed)
                if result.isComplete { return body }
            }
            guard try await fill(deadline: deadline) else {
                throw .invalidResponse(reason: "connection closed inside a chunked body")
            }
        }
    }

    private func readBodyUntilClose(maximumBytes: Int, deadline: ContinuousClock.Instant) async throws(HTTPClientError) -> [UInt8] {
        var body = [UInt8]()
        repeat {
            guard buffer.readableCount <= maximumBytes - body.count else { throw .bodyTooLarge(limit: maximumBytes) }
            buffer.withUnsafeReadableBytes { bytes in body.append(contentsOf: bytes) }
            buffer.consume(buffer.readableCount)
        } while try await fill(deadline: deadline)
        return body
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

    private static func clientError(_ error: HTTPParseError, limit: Int) -> HTTPClientError {
        error.status == .contentTooLarge ? .bodyTooLarge(limit: limit) : .invalidResponse(reason: error.reason)
    }
}
