import HTTP1
import HTTP1Server
import HTTPBasics
import Testing

/// Hostile and broken HTTP through real sockets: each input gets its 4xx (or a clean close), the
/// server never hangs on it, and a well-behaved client on another connection keeps being served.
@Suite("Reliability: hostile clients")
struct HostileClientTests {
    /// Short deadlines so a stalled input is dropped well within the test's own timeout.
    static let configuration = ServerConfiguration(
        limits: HTTPLimits(maximumRequestLineBytes: 4096, maximumHeaderBytes: 8192, maximumHeaderCount: 50, maximumBodyBytes: 64 << 10),
        timeouts: ServerTimeouts(requestHead: .milliseconds(400), bodyGap: .milliseconds(400), idle: .seconds(30), send: .seconds(2)))

    static let hostile: [(name: String, request: String)] = [
        ("not HTTP", "HELLO\r\n\r\n"),
        ("TLS client hello", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n"),
        ("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
        ("unknown version", "GET / HTTP/9.9\r\nHost: x\r\n\r\n"),
        ("double space in request line", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("NUL in the target", "GET /a\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("invalid UTF-8 in the target", "GET /\u{ff}\u{fe} HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("control character in the target", "GET /a\u{7}b HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("NUL in a header value", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n"),
        ("bare CR in a header", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n"),
        ("space before the colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n"),
        ("separator in a field name", "GET / HTTP/1.1\r\nHo(st: x\r\n\r\n"),
        ("obsolete line folding", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n"),
        ("Content-Length with Transfer-Encoding", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        ("two different Content-Lengths", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"),
        ("negative Content-Length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"),
        ("signed Content-Length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +1\r\n\r\na"),
        ("huge Content-Length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n"),
        ("Content-Length overflowing 64 bits", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
        ("unknown transfer coding", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"),
        ("chunked not last", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n"),
        ("chunk size not hex", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n"),
        ("chunk size overflowing 64 bits", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nab\r\n0\r\n\r\n"),
        ("chunk larger than the body limit", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\nab"),
        ("chunk without its CRLF", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd\r\n0\r\n\r\n"),
        ("request line over the limit", "GET /" + String(repeating: "a", count: 5000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("one header over the limit", "GET / HTTP/1.1\r\nHost: x\r\nX-A: " + String(repeating: "v", count: 9000) + "\r\n\r\n"),
        ("too many headers", "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<60).map { "X-\($0): v\r\n" }.joined() + "\r\n"),
        ("declared body over the limit", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n"),
        ("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
    ]

    @Test("each hostile request is refused with a 4xx or 5xx and the connection closes", arguments: hostile)
    func refusesHostileRequest(name: String, request: String) async throws {
        try await withServer(Self.configuration) { server in
            let exchange = try #require(try await RawExchange.send(Array(request.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }), to: server.port))
            let statuses = exchange.statuses
            #expect(statuses.allSatisfy { $0 >= 400 }, "\(name): \(statuses)")
            #expect(statuses.count <= 1, "\(name): \(statuses)")
            try await expectStillServing(server)
        }
    }

    @Test("a request cut off anywhere gets no success answer and its connection closes")
    func truncatedRequests() async throws {
        let requests = [
            "GET /ok HTTP/1.1\r\nHost: x\r\nX-A: b\r\n\r\n",
            "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789",
            "POST /ok HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        ]
        try await withServer(Self.configuration) { server in
            for request in requests {
                let bytes = Array(request.utf8)
                for cut in stride(from: 1, to: bytes.count, by: 3) {
                    // Half-closed: the server sees the end at once.
                    let halfClosed = try #require(try await RawExchange.send(Array(bytes[..<cut]), to: server.port, halfClose: true))
                    #expect(halfClosed.statuses.allSatisfy { $0 >= 400 }, "cut at \(cut): \(halfClosed.statuses)")
                }
                // Left open: the head or body deadline closes it.
                for cut in [bytes.count / 3, bytes.count - 1] {
                    let stalled = try #require(try await RawExchange.send(Array(bytes[..<cut]), to: server.port))
                    #expect(stalled.statuses.allSatisfy { $0 >= 400 })
                }
            }
            try await expectStillServing(server)
        }
    }

    @Test("random and mutated bytes never crash or hang the server, and a kept-alive client is still served")
    func randomInput() async throws {
        var generator = SeededGenerator(seed: 0x5EED_2026)
        let seeds = [
            "GET /v1/people/1 HTTP/1.1\r\nHost: x\r\nX-Request-ID: a\r\n\r\n",
            "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
            "POST /p HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        ].map { Array($0.utf8) }
        let alphabet = Array("\r\n :;,%/\0\t0123456789abcdefxHTP.-".utf8) + [0x80, 0xff]
        var inputs: [[UInt8]] = []
        for index in 0..<240 {
            if index % 3 == 0 {
                inputs.append((0..<Int.random(in: 1...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            } else {
                var input = seeds[index % seeds.count]
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let position = Int.random(in: 0..<input.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: input[position] = alphabet.randomElement(using: &generator) ?? 0
                    case 1: input.insert(alphabet.randomElement(using: &generator) ?? 0, at: position)
                    case 2 where input.count > 1: input.remove(at: position)
                    default: input.insert(contentsOf: input[position...].prefix(40), at: position)
                    }
                }
                inputs.append(input)
            }
        }
        let batches = stride(from: 0, to: inputs.count, by: 24).map { Array(inputs[$0..<min($0 + 24, inputs.count)]) }
        try await withServer(Self.configuration) { server in
            var keptAlive = try await TestClient.connect(port: server.port)
            defer { keptAlive.close() }
            try await keptAlive.send("GET /before HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await keptAlive.readResponse().status == 200)
            for batch in batches {
                let hung = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for input in batch {
                        group.addTask { try await RawExchange.send(input, to: server.port, halfClose: true) == nil }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(hung == 0)
            }
            try await keptAlive.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            let after = try await keptAlive.readResponse()
            #expect(after.status == 200 && after.text == "GET /after ")
            #expect(await openConnections(of: server, settleAt: 1) == 1)
        }
    }

    @Test("a client that never reads its responses is dropped at the send deadline; others are served")
    func clientThatNeverReads() async throws {
        let big = HTTPResponse(status: .ok, body: [UInt8](repeating: 0x61, count: 1 << 20))
        let responder = TestResponder { request in request.path == "/big" ? big : HTTPResponse(status: .ok) }
        var configuration = Self.configuration
        configuration.timeouts.send = .milliseconds(300)
        try await withServer(configuration, responder: responder) { server in
            let reader = try await TestClient.connect(port: server.port)
            defer { reader.close() }
            let pipelined = String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 16)
            try await reader.send(pipelined)
            try await expectStillServing(server)
            #expect(await openConnections(of: server, settleAt: 0) == 0)
        }
    }

    /// A new client gets its answer.
    private func expectStillServing(_ server: HTTPServer) async throws {
        var client = try await TestClient.connect(port: server.port)
        defer { client.close() }
        try await client.send("GET /alive HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
    }

    /// The server's open connection count once it reaches `expected` or two seconds pass.
    private func openConnections(of server: HTTPServer, settleAt expected: Int) async -> Int {
        let deadline = ContinuousClock.now + .seconds(2)
        while server.metrics.openConnections != expected, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return server.metrics.openConnections
    }
}
