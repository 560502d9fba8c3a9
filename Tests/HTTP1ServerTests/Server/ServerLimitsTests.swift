import HTTP1
import HTTP1Server
import Testing

@Suite struct ServerLimitsTests {
    private func expectRefusal(_ request: String, status: Int, limits: HTTPLimits = HTTPLimits()) async throws {
        try await withServer(ServerConfiguration(limits: limits)) { server in
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            try await client.send(request)
            let response = try await client.readResponse()
            #expect(response.status == status)
            #expect(response.header("Connection") == "close")
            #expect(await client.waitForClose())
        }
    }

    @Test func refusesALongRequestLineWith414() async throws {
        let path = String(repeating: "a", count: 200)
        try await expectRefusal("GET /\(path) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414, limits: HTTPLimits(maximumRequestLineBytes: 100))
    }

    @Test func refusesLargeHeadersWith431() async throws {
        let value = String(repeating: "v", count: 300)
        try await expectRefusal("GET / HTTP/1.1\r\nHost: x\r\nBig: \(value)\r\n\r\n", status: 431, limits: HTTPLimits(maximumHeaderBytes: 200))
    }

    @Test func refusesTooManyHeadersWith431() async throws {
        let fields = (0..<10).map { "F\($0): v\r\n" }.joined()
        try await expectRefusal("GET / HTTP/1.1\r\nHost: x\r\n\(fields)\r\n", status: 431, limits: HTTPLimits(maximumHeaderCount: 5))
    }

    @Test func refusesALargeDeclaredBodyWith413() async throws {
        try await expectRefusal("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", status: 413, limits: HTTPLimits(maximumBodyBytes: 100))
    }

    @Test func refusesALargeChunkedBodyWith413() async throws {
        let chunk = String(repeating: "z", count: 200)
        try await expectRefusal(
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nc8\r\n\(chunk)\r\n0\r\n\r\n",
            status: 413, limits: HTTPLimits(maximumBodyBytes: 100))
    }

    @Test func turnsAwayConnectionsOverTheCapWhenNoneIsKeptAlive() async throws {
        try await withServer(ServerConfiguration(maximumConnections: 1)) { server in
            // Connected but silent: it has not been answered, so it is not reclaimed.
            let first = try await TestClient.connect(port: server.port)
            defer { first.close() }
            var second = try await TestClient.connect(port: server.port)
            defer { second.close() }
            #expect(try await second.readResponse().status == 503)
            #expect(await second.waitForClose())
            #expect(server.metrics.refusedConnections == 1)
        }
    }
}
