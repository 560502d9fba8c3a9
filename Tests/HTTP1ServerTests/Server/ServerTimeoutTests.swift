import HTTP1Server
import NetworkRuntime
import Testing

@Suite struct ServerTimeoutTests {
    private static let short = ServerConfiguration(
        timeouts: ServerTimeouts(requestHead: .milliseconds(100), bodyGap: .milliseconds(100), idle: .milliseconds(100), send: .seconds(5)))

    @Test func closesAConnectionWhoseHeadStalls() async throws {
        try await withServer(Self.short) { server in
            let started = ContinuousClock.now
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET / HTTP/1.1\r\nHo")
            #expect(await client.waitForClose())
            #expect(ContinuousClock.now - started >= .milliseconds(100))
        }
    }

    @Test func theHeadDeadlineIsAbsoluteNotPerRead() async throws {
        try await withServer(Self.short) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            let started = ContinuousClock.now
            // A byte every 30 ms keeps each read short, but the whole head is not in after 100 ms.
            // The trickle lasts six seconds: a deadline per read would close the connection only
            // after it, so closing well before shows the deadline holds for the head as a whole.
            let socket = client.socket
            let trickle = Task {
                for byte in "GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "y", count: 175))".utf8 {
                    try await socket.write([byte], deadline: .now + .seconds(5))
                    try await Task.sleep(for: .milliseconds(30))
                }
            }
            #expect(await client.waitForClose())
            trickle.cancel()
            #expect(ContinuousClock.now - started < .seconds(4))
        }
    }

    @Test func closesAnIdleKeptAliveConnection() async throws {
        try await withServer(Self.short) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().status == 200)
            #expect(await client.waitForClose())
        }
    }

    @Test func closesAConnectionWhoseBodyStalls() async throws {
        try await withServer(Self.short) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
            #expect(await client.waitForClose())
        }
    }
}
