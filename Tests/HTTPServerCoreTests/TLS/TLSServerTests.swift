import HTTPServerCore
import Testing

/// `HTTPServer` terminating TLS.
@Suite("TLS server")
struct TLSServerTests {
    @Test func closesAConnectionWhoseHandshakeStallsAtTheHeadTimeout() async throws {
        var configuration = ServerConfiguration(tls: try TestCertificates.server())
        configuration.timeouts.requestHead = .milliseconds(100)
        try await withServer(configuration) { server in
            let started = ContinuousClock.now
            var client = try await TestClient.connect(port: server.port)
            defer { client.close() }
            #expect(await client.waitForClose())
            #expect(ContinuousClock.now - started >= .milliseconds(100))
        }
    }

    @Test func closesAPlainHTTPClientAndKeepsServing() async throws {
        try await withServer(ServerConfiguration(tls: try TestCertificates.server())) { server in
            var plain = try await TestClient.connect(port: server.port)
            defer { plain.close() }
            try await plain.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await plain.waitForClose())
            let response = try await HTTPClient().send(
                HTTPClientRequest(host: "localhost", port: server.port, target: "/after", tls: try TestCertificates.client()),
                timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.body == Array("GET /after ".utf8))
        }
    }
}
