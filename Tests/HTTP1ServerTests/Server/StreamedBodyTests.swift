import HTTP1
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import Synchronization
import Testing

/// Bodies that flow through the server: answers written piece by piece as they are produced
/// (chunked, or until close for HTTP/1.0), request bodies read by handlers as they arrive, and
/// streams ended cleanly by a draining shutdown. Raw bytes over loopback; each side waits for
/// what the other did, never for time.
@Suite struct StreamedBodyTests {
    /// A responder made of a closure that takes request bodies as streams.
    private struct StreamingResponder: HTTPResponder {
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse
        func respond(to request: HTTPRequest) async -> HTTPResponse { await handler(request) }
        func streamsBody(of head: RequestHead) -> Bool { true }
    }

    /// A raw connection that reads until what it waits for has arrived.
    private struct RawConnection {
        let socket: AsyncSocket
        var received: [UInt8] = []

        static func open(port: Int) async throws -> RawConnection {
            RawConnection(socket: try await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: port), deadline: .now + .seconds(5)))
        }

        func send(_ text: String) async throws {
            try await socket.write(Array(text.utf8), deadline: .now + .seconds(5))
        }

        /// Reads until `text` has arrived; returns everything received so far.
        mutating func read(until text: String) async throws -> String {
            while !String(decoding: received, as: UTF8.self).contains(text) {
                var buffer = ReadBuffer()
                guard try await socket.read(into: &buffer, deadline: .now + .seconds(5)) > 0 else { break }
                received += buffer.withUnsafeReadableBytes { Array($0) }
            }
            return String(decoding: received, as: UTF8.self)
        }

        /// Reads until the server closes; returns everything received.
        mutating func readToEnd() async throws -> String {
            while true {
                var buffer = ReadBuffer()
                guard try await socket.read(into: &buffer, deadline: .now + .seconds(5)) > 0 else { break }
                received += buffer.withUnsafeReadableBytes { Array($0) }
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    @Test func sendsAStreamChunkedFlushingEachPieceAsItComes() async throws {
        let gate = Gate()
        let responder = StreamingResponder { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], bodyStream: .writing { writer in
                try await writer.write(Array("data: 1\n\n".utf8))
                await gate.wait()
                try await writer.write(Array("data: 2\n\n".utf8))
            })
        }
        try await withServer(responder: responder) { server in
            var connection = try await RawConnection.open(port: server.port)
            defer { connection.socket.close() }
            try await connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try await connection.read(until: "data: 1\n\n\r\n")
            #expect(first.contains("Transfer-Encoding: chunked\r\n"))
            #expect(!first.contains("Content-Length"))
            #expect(!first.contains("data: 2"))
            gate.open()
            let whole = try await connection.read(until: "\r\n0\r\n\r\n")
            #expect(whole.hasSuffix("\r\n\r\n9\r\ndata: 1\n\n\r\n9\r\ndata: 2\n\n\r\n0\r\n\r\n"))
            // Kept alive: a second request is answered on the same connection.
            try await connection.send("GET /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            gate.open()
            #expect(try await connection.readToEnd().hasSuffix("9\r\ndata: 2\n\n\r\n0\r\n\r\n"))
        }
    }

    @Test func sendsAStreamOfKnownLengthWithContentLengthAndToHTTP10UntilClose() async throws {
        let responder = StreamingResponder { request in
            let length: Int? = request.path == "/known" ? 6 : nil
            return HTTPResponse(status: .ok, bodyStream: .writing(length: length) { writer in
                try await writer.write(Array("abc".utf8))
                try await writer.write(Array("def".utf8))
            })
        }
        try await withServer(responder: responder) { server in
            var known = try await RawConnection.open(port: server.port)
            defer { known.socket.close() }
            try await known.send("GET /known HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = try await known.readToEnd()
            #expect(answer.contains("Content-Length: 6\r\n") && answer.hasSuffix("\r\n\r\nabcdef"))
            var old = try await RawConnection.open(port: server.port)
            defer { old.socket.close() }
            try await old.send("GET /unknown HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let untilClose = try await old.readToEnd()
            #expect(untilClose.contains("Connection: close\r\n"))
            #expect(!untilClose.contains("Transfer-Encoding") && !untilClose.contains("Content-Length"))
            #expect(untilClose.hasSuffix("\r\n\r\nabcdef"))
        }
    }

    @Test func answersHEADWithoutRunningTheStream() async throws {
        let started = Atomic<Bool>(false)
        let responder = StreamingResponder { _ in
            HTTPResponse(status: .ok, bodyStream: .writing { writer in
                started.store(true, ordering: .relaxed)
                try await writer.write(Array("body".utf8))
            })
        }
        try await withServer(responder: responder) { server in
            var connection = try await RawConnection.open(port: server.port)
            defer { connection.socket.close() }
            try await connection.send("HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = try await connection.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("\r\n\r\n"))
            #expect(answer.contains("Transfer-Encoding: chunked\r\n"))
            let producerRan = started.load(ordering: .relaxed)
            #expect(!producerRan)
        }
    }

    @Test func handsARequestBodyToItsHandlerAsItArrivesThenServesThePipelinedRequest() async throws {
        let firstPieceSeen = Gate()
        let responder = StreamingResponder { request in
            guard let stream = request.bodyStream else {
                return HTTPResponse(status: .ok, body: Array("whole \(request.body.count)".utf8))
            }
            var pieces: [String] = []
            do {
                while let piece = try await stream.next() {
                    pieces.append(String(decoding: piece, as: UTF8.self))
                    firstPieceSeen.open()
                }
            } catch {
                return HTTPResponse(status: .badRequest)
            }
            return HTTPResponse(status: .ok, body: Array(pieces.joined(separator: "|").utf8))
        }
        try await withServer(responder: responder) { server in
            var connection = try await RawConnection.open(port: server.port)
            defer { connection.socket.close() }
            try await connection.send("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n")
            // The second chunk is sent only once the handler has read the first.
            await firstPieceSeen.wait()
            try await connection.send("6\r\nsecond\r\n0\r\n\r\nPOST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
            let answers = try await connection.readToEnd()
            #expect(answers.contains("\r\n\r\nfirst|second"))
            #expect(answers.hasSuffix("\r\n\r\nwhole 3"))
        }
    }

    @Test func closesTheConnectionWhenTheHandlerLeftTheBodyUnread() async throws {
        let responder = StreamingResponder { _ in HTTPResponse(status: .accepted) }
        try await withServer(responder: responder) { server in
            var connection = try await RawConnection.open(port: server.port)
            defer { connection.socket.close() }
            try await connection.send("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\npartial")
            let answer = try await connection.readToEnd()
            #expect(answer.hasPrefix("HTTP/1.1 202"))
            #expect(answer.contains("Connection: close\r\n"))
        }
    }

    @Test func drainingEndsAnOpenStreamWithItsLastChunk() async throws {
        let responder = StreamingResponder { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], bodyStream: .writing { writer in
                try await writer.write(Array("data: open\n\n".utf8))
                // An endless stream that sends nothing more, as a quiet event stream does.
                try await Task.sleep(for: .seconds(3600))
            })
        }
        let server = try HTTPServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, shutdownGracePeriod: .milliseconds(50)), responder: responder)
        let running = Task { await server.run() }
        var connection = try await RawConnection.open(port: server.port)
        defer { connection.socket.close() }
        try await connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await connection.read(until: "data: open\n\n\r\n")
        server.shutdown()
        let whole = try await connection.readToEnd()
        await running.value
        #expect(whole.hasSuffix("data: open\n\n\r\n0\r\n\r\n"))
    }
}
