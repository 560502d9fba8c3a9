import HTTP1
import HTTPBasics
import NetworkRuntime

/// One client connection: reads a request, awaits the responder, writes the response, and again,
/// so pipelined requests are answered in order. Runs in its own task on the socket's loop.
struct HTTPConnection {
    /// Initial read buffer size; it grows only as far as the head limits need.
    private static let initialBufferCapacity = 2048
    /// At most this much is reserved up front for a body, whatever `Content-Length` claims.
    private static let initialBodyReservation = 64 * 1024
    /// How long and how much a closing connection reads and discards so its last response is not
    /// lost to a reset while the client is still sending.
    private static let lingerTime = Duration.seconds(2)
    private static let lingerBytes = 1 << 20

    let socket: AsyncSocket
    let context: ConnectionContext
    let phase: ConnectionPhase

    func run() async {
        var headDeadline: ContinuousClock.Instant? = .now + context.configuration.timeouts.requestHead
        guard await handshakeIfTLS(deadline: headDeadline) else { return }
        var buffer = ReadBuffer(capacity: Self.initialBufferCapacity)
        var parser = RequestHeadParser(limits: context.parserLimits)
        var responseHead: [UInt8] = []
        do {
            while let parsed = try await readHead(into: &buffer, parser: &parser, deadline: headDeadline) {
                headDeadline = nil
                buffer.consume(parsed.length)
                let next = try await answer(parsed.head, buffer: &buffer, responseHead: &responseHead)
                if next == .handedOver { return }
                guard next == .readNextRequest else { break }
                phase.endRequest()
                // A draining server still answers a request sent after a kept-alive answer, until
                // the window for it ends: the client may have sent it already.
                if context.isClosingIdle { break }
                buffer.shrinkIfEmpty()
            }
        } catch {
            // Timeouts, resets and cancellation all end the connection without a response.
            guard await refuse(error, buffer: buffer) else {
                socket.close()
                return
            }
        }
        await closeGracefully(buffer: &buffer)
    }

    /// Runs the TLS handshake when the server terminates TLS; false when it failed, which has
    /// nobody to answer (the socket is then closed).
    // Never inlined: its temporaries would enlarge the async frame of `run`, held for the connection's life.
    @inline(never)
    private func handshakeIfTLS(deadline: ContinuousClock.Instant?) async -> Bool {
        guard let tls = context.configuration.tls else { return true }
        return (try? await socket.startTLS(server: tls, deadline: deadline)) != nil
    }

    /// Reads until a whole head is buffered; nil when the connection should just close (peer
    /// closed, idle or head timeout, shutdown).
    private func readHead(
        into buffer: inout ReadBuffer,
        parser: inout RequestHeadParser,
        deadline firstRequestDeadline: ContinuousClock.Instant?
    ) async throws(HTTPParseError) -> ParsedRequestHead? {
        let timeouts = context.configuration.timeouts
        var headDeadline = firstRequestDeadline
        var idleDeadline: ContinuousClock.Instant?
        var hasBegun = false
        while true {
            if !buffer.isEmpty {
                if !hasBegun {
                    guard phase.beginRequest() else { return nil }
                    hasBegun = true
                    if headDeadline == nil { headDeadline = .now + timeouts.requestHead }
                }
                let parsed = try buffer.withUnsafeReadableBytes { bytes throws(HTTPParseError) in try parser.parse(bytes) }
                if let parsed { return parsed }
            }
            let deadline: ContinuousClock.Instant
            if let headDeadline {
                deadline = headDeadline
            } else if let idleDeadline {
                deadline = idleDeadline
            } else {
                deadline = .now + timeouts.idle
                idleDeadline = deadline
            }
            do {
                guard try await socket.read(into: &buffer, deadline: deadline) > 0 else { return nil }
            } catch {
                return nil
            }
        }
    }

    /// What a connection does after answering a request.
    private enum NextStep {
        case readNextRequest
        case close
        /// The answer switched protocols and its takeover ran, which leaves nothing to do.
        case handedOver
    }

    /// Reads the body (or hands it to the handler as a stream), runs the responder and writes
    /// the response; returns what the connection does next.
    ///
    /// Only what crosses an `await` lives in this async frame, which stays allocated for as long as
    /// the responder runs; the head is written by a synchronous helper. The access log is the
    /// responder's: only it knows what the request meant (its route, its upstream calls).
    private func answer(_ head: RequestHead, buffer: inout ReadBuffer, responseHead: inout [UInt8]) async throws -> NextStep {
        if head.expectsContinue, head.framing != .none, buffer.isEmpty {
            try await socket.write(ResponseHeadWriter.continueHead, deadline: .now + context.configuration.timeouts.send)
        }
        let reader = head.framing == .none ? nil : streamedBodyReader(for: head, buffer: &buffer)
        let body = head.framing == .none || reader != nil ? [] : try await readBody(of: head, from: &buffer)

        context.metrics.requestStarted()
        let response = await context.responder.respond(to: request(head, body: body, reader: reader))
        if let reader { buffer = reader.takeBuffer() }
        let outcome = writeHead(of: response, for: head, bodyIsRead: reader?.isComplete ?? true, into: &responseHead)
        do {
            if let stream = response.bodyStream {
                // The stream may wait long between pieces: the request's buffer, empty unless the
                // client pipelined, is not held meanwhile.
                buffer.releaseIfEmpty()
                try await writeStreamed(stream, head: responseHead, sendsBody: outcome.sendsBody, chunked: outcome.chunked)
            } else {
                try await socket.write(
                    responseHead, outcome.sendsBody ? response.body : [], deadline: .now + context.configuration.timeouts.send)
            }
        } catch {
            context.metrics.requestFinished()
            throw error
        }
        context.metrics.requestFinished()
        if let takeover = response.takeover, response.status.code == 101 {
            await handOver(to: takeover, buffer: &buffer)
            return .handedOver
        }
        return outcome.keepsAlive ? .readNextRequest : .close
    }

    /// Runs `takeover` with the socket and the bytes read past the request, then closes the
    /// socket. From here a client's FIN is the new protocol's business, not a reason to cancel.
    @inline(never)
    private func handOver(to takeover: ConnectionTakeover, buffer: inout ReadBuffer) async {
        phase.switchProtocols()
        let buffered = Array(buffer.take(upTo: buffer.readableCount))
        await takeover.take(SwitchedConnection(socket: socket, bufferedBytes: buffered))
        socket.close()
    }

    /// The reader of a body its handler streams, holding the connection's buffer until the
    /// response is returned; nil when the server reads the body whole: the handler wants it so,
    /// or all of it came with the head (a small body then costs no more than before).
    @inline(never)
    private func streamedBodyReader(for head: RequestHead, buffer: inout ReadBuffer) -> RequestBodyReader? {
        if case .contentLength(let length) = head.framing, buffer.readableCount >= length { return nil }
        guard context.responder.streamsBody(of: head) else { return nil }
        var taken = ReadBuffer(capacity: 64)
        swap(&taken, &buffer)
        return RequestBodyReader(socket: socket, framing: head.framing, buffer: taken, gap: context.configuration.timeouts.bodyGap)
    }

    @inline(never)
    private func request(_ head: RequestHead, body: [UInt8], reader: RequestBodyReader?) -> HTTPRequest {
        var request = HTTPRequest(head: head, body: body, clientAddress: socket.peerIP)
        if let reader {
            let length: Int? = if case .contentLength(let length) = head.framing { length } else { nil }
            request.bodyStream = HTTPBodyStream(length: length, source: reader)
        }
        return request
    }

    /// Writes the response head, then each piece of `stream` as soon as it is read (chunked
    /// unless its length is known), reading the next only once the last is written: a slow
    /// client slows the stream's source. Returns the body bytes sent.
    ///
    /// A stream that fails, or breaks its announced length, leaves the body cut short and the
    /// connection is closed (the error is thrown), so the client sees it incomplete; but when the
    /// server is draining and cuts a chunked stream, such as an event stream, its last chunk is
    /// sent, so the client sees a clean end.
    private func writeStreamed(_ stream: HTTPBodyStream, head: [UInt8], sendsBody: Bool, chunked: Bool) async throws {
        let timeout = context.configuration.timeouts.send
        guard sendsBody else {
            stream.cancel()
            try await socket.write(head, deadline: .now + timeout)
            return
        }
        var sent = 0
        do {
            try await socket.write(head, deadline: .now + timeout)
            var sizeLine: [UInt8] = []
            while var piece = try await stream.next() {
                if let length = stream.length, piece.count > length - sent {
                    throw HTTPBodyError.failed(reason: "the body is longer than its length")
                }
                sent += piece.count
                if chunked {
                    sizeLine.removeAll(keepingCapacity: true)
                    ChunkFraming.wrap(&piece, sizeLine: &sizeLine)
                }
                try await socket.write(sizeLine, piece, deadline: .now + timeout)
            }
            if let length = stream.length, sent != length { throw HTTPBodyError.failed(reason: "the body is shorter than its length") }
            if chunked { try await socket.write(ChunkFraming.lastChunk, deadline: .now + timeout) }
        } catch {
            stream.cancel()
            if chunked, context.isDraining, error as? HTTPBodyError == .cancelled {
                try? await socket.write(ChunkFraming.lastChunk, deadline: .now + timeout)
            }
            throw error
        }
    }

    /// Writes the response head into `responseHead`; returns whether the connection stays open,
    /// whether the body goes out (not for HEAD, 204, 304) and whether it goes out chunked.
    ///
    /// - Parameter bodyIsRead: the request's body was read to its end; if not, the connection
    ///   cannot find the next request and closes.
    private func writeHead(
        of response: HTTPResponse, for head: RequestHead, bodyIsRead: Bool, into responseHead: inout [UInt8]
    ) -> (keepsAlive: Bool, sendsBody: Bool, chunked: Bool) {
        let answersHEAD = head.method == .head
        let sendsBody = !answersHEAD && response.status.allowsContent
        let unknownLength = response.bodyStream != nil && response.bodyStream?.length == nil && response.status.allowsContent
        // A body of unknown length ends with the connection for an HTTP/1.0 client, which knows no chunks.
        let chunked = unknownLength && head.version != .http1_0
        let keepsAlive = head.keepAlive && !context.isDraining && !Task.isCancelled && bodyIsRead && !(unknownLength && !chunked)
        var response = response
        if let serverName = context.configuration.serverName { response.headers.set("Server", serverName) }
        responseHead.removeAll(keepingCapacity: true)
        ResponseHeadWriter.write(
            response, keepAlive: keepsAlive, requestVersion: head.version, answersHEAD: answersHEAD, commonFields: context.commonFields,
            into: &responseHead)
        return (keepsAlive, sendsBody, chunked && sendsBody)
    }

    /// Reads the body `head` announces; a malformed or oversized chunked body throws `BodyRefusal`.
    private func readBody(of head: RequestHead, from buffer: inout ReadBuffer) async throws -> [UInt8] {
        let gap = context.configuration.timeouts.bodyGap
        var body: [UInt8] = []
        switch head.framing {
        case .none:
            return body
        case .contentLength(let length):
            guard length <= context.configuration.limits.maximumBodyBytes else {
                throw BodyRefusal(rejection: RejectedRequest(.bodyTooLarge, of: head, peer: peerToReport))
            }
            body.reserveCapacity(min(length, Self.initialBodyReservation))
            while body.count < length {
                if buffer.isEmpty {
                    guard try await socket.read(into: &buffer, deadline: .now + gap) > 0 else { throw SocketError.closed }
                }
                let wanted = length - body.count
                let taken = buffer.withUnsafeReadableBytes { bytes in
                    body.append(contentsOf: bytes.prefix(wanted))
                    return min(wanted, bytes.count)
                }
                buffer.consume(taken)
            }
            return body
        case .chunked:
            var decoder = ChunkedBodyDecoder(maximumBodyBytes: context.configuration.limits.maximumBodyBytes)
            while true {
                if !buffer.isEmpty {
                    let (consumed, isComplete) = try decodeChunks(&decoder, from: buffer, into: &body, of: head)
                    buffer.consume(consumed)
                    if isComplete { return body }
                }
                guard try await socket.read(into: &buffer, deadline: .now + gap) > 0 else { throw SocketError.closed }
            }
        }
    }

    /// Decodes the chunked body bytes in `buffer`. A synchronous function, so that what a
    /// refusal builds stays on the thread's stack, out of `readBody`'s async frame.
    @inline(never)
    private func decodeChunks(
        _ decoder: inout ChunkedBodyDecoder, from buffer: ReadBuffer, into body: inout [UInt8], of head: RequestHead
    ) throws(BodyRefusal) -> (consumed: Int, isComplete: Bool) {
        do {
            return try buffer.withUnsafeReadableBytes { bytes throws(HTTPParseError) in try decoder.decode(bytes, into: &body) }
        } catch {
            throw BodyRefusal(rejection: RejectedRequest(error, of: head, peer: peerToReport))
        }
    }

    /// Answers a request refused by the parser (a head, or the `BodyRefusal` of a body) with its
    /// problem+json status, then counts and reports it; the caller closes. Returns false, doing
    /// nothing, for any other error. It builds the report itself so that `run()`'s async frame,
    /// kept for the life of the connection, holds none of it.
    @inline(never)
    private func refuse(_ error: any Error, buffer: ReadBuffer) async -> Bool {
        let rejection: RejectedRequest
        if let error = error as? HTTPParseError {
            // The parser consumes nothing from a head it refuses, so its request line is still there.
            let peer = peerToReport
            rejection = buffer.withUnsafeReadableBytes { RejectedRequest(error, requestLine: $0, peer: peer) }
        } else if let refusal = error as? BodyRefusal {
            rejection = refusal.rejection
        } else {
            return false
        }
        var head: [UInt8] = []
        let response = HTTPResponse.problem(rejection.status, detail: rejection.reason)
        ResponseHeadWriter.write(response, keepAlive: false, commonFields: context.commonFields, into: &head)
        try? await socket.write(head, response.body, deadline: .now + context.configuration.timeouts.send)
        context.metrics.requestRejected()
        context.rejectionLog?(rejection)
        return true
    }

    /// A chunked body the decoder refused, with what is known of its request.
    private struct BodyRefusal: Error {
        let rejection: RejectedRequest
    }

    /// The client's address when refusals are reported (a system call), else nil.
    private var peerToReport: String? {
        context.rejectionLog == nil ? nil : socket.peerAddress
    }

    /// Sends FIN, then reads and discards what the client still sends (bounded in time and
    /// bytes) before closing, so the last response is not destroyed by a reset.
    private func closeGracefully(buffer: inout ReadBuffer) async {
        let deadline = ContinuousClock.now + Self.lingerTime
        await socket.shutdownOutput(deadline: deadline)
        var discarded = 0
        while discarded < Self.lingerBytes {
            buffer.consume(buffer.readableCount)
            guard let count = try? await socket.read(into: &buffer, deadline: deadline), count > 0 else { break }
            discarded += count
        }
        socket.close()
    }
}
