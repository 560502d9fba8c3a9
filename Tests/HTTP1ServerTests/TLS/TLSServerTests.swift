import Glibc
import HTTP1Client
import HTTP1Server
import HTTPBasics
import NetworkRuntime
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

    @Test func closesAConnectionThatSendsGarbageAfterTheHandshakeAndKeepsServing() async throws {
        try await withServer(ServerConfiguration(tls: try TestCertificates.server())) { server in
            let deadline = ContinuousClock.now + .seconds(5)
            let socket = try await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: server.port), deadline: deadline)
            defer { socket.close() }
            try await socket.startTLS(client: try TestCertificates.client(), host: "localhost", port: server.port, deadline: deadline)
            // An application data record whose bytes do not decrypt, sent past OpenSSL.
            let garbage: [UInt8] = [0x17, 0x03, 0x03, 0x00, 0x20] + Array(repeating: 0xAB, count: 32)
            #expect(garbage.withUnsafeBytes { send(socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == garbage.count)
            var buffer = ReadBuffer()
            do throws(SocketError) {
                let count = try await socket.read(into: &buffer, deadline: deadline)
                #expect(count == 0)
            } catch {
                #expect(error != .timedOut)
            }
            let response = try await HTTPClient().send(
                HTTPClientRequest(host: "localhost", port: server.port, target: "/after", tls: try TestCertificates.client()),
                timeout: .seconds(5), maximumResponseBytes: 1024)
            #expect(response.body == Array("GET /after ".utf8))
        }
    }
}
