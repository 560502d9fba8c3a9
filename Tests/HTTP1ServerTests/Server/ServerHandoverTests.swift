import Glibc
import HTTPBasics
import NetworkRuntime
import Testing

@testable import HTTP1Server

/// What a server does so that another process can take over its port without a client seeing a
/// reset: it shares the port when asked (SO_REUSEPORT), and while draining it answers the
/// request a client sent on a kept-alive connection as the drain began.
@Suite struct ServerHandoverTests {
    static func configuration(port: Int, sharesPort: Bool, lastRequest: Duration = .milliseconds(500)) -> ServerConfiguration {
        ServerConfiguration(
            host: "127.0.0.1", port: port, timeouts: ServerTimeouts(lastRequest: lastRequest), shutdownGracePeriod: .seconds(10),
            sharesPort: sharesPort)
    }

    /// A port that was free a moment ago (a fixed port is what sharing is for; port 0 never shares).
    static func freePort() throws -> Int {
        try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0)).port
    }

    @Test func twoServersShareAPortOnlyWhenBothAsk() async throws {
        let responder = TestResponder { _ in HTTPResponse(status: .ok) }
        let port = try Self.freePort()
        let first = try HTTPServer(configuration: Self.configuration(port: port, sharesPort: true), responder: responder)
        let second = try HTTPServer(configuration: Self.configuration(port: port, sharesPort: true), responder: responder)
        #expect(second.port == first.port)
        #expect(throws: SocketError.self) {
            try HTTPServer(configuration: Self.configuration(port: port, sharesPort: false), responder: responder)
        }
        let unshared = try Self.freePort()
        let alone = try HTTPServer(configuration: Self.configuration(port: unshared, sharesPort: false), responder: responder)
        #expect(throws: SocketError.self) {
            try HTTPServer(configuration: Self.configuration(port: unshared, sharesPort: true), responder: responder)
        }
        #expect(alone.port == unshared)
    }

    @Test func aRequestSentOnAnIdleConnectionAsTheDrainBeginsIsAnsweredWithClose() async throws {
        let responder = TestResponder { request in HTTPResponse(status: .ok, body: Array(request.path.utf8)) }
        // A window far longer than the test, so that the request cannot miss it.
        let (draining, drainStarted) = AsyncStream.makeStream(of: Void.self)
        let server = try HTTPServer(
            configuration: Self.configuration(port: 0, sharesPort: false, lastRequest: .seconds(30)), responder: responder,
            drainLog: { step in if case .draining = step { drainStarted.yield() } })
        let running = Task { await server.run() }
        var client = try await TestClient.connect(port: server.port)
        defer { client.close() }
        try await client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().header("Connection") == nil)

        server.shutdown()
        // Answers say `Connection: close` once the listener is closed, which the drain's first step reports.
        for await _ in draining { break }
        try await client.send("GET /last HTTP/1.1\r\nHost: x\r\n\r\n")
        let last = try await client.readResponse()
        #expect(last.text == "/last")
        #expect(last.header("Connection") == "close")
        #expect(await client.waitForClose())
        // The server reads what a closing client still sends until it closes too.
        client.close()
        await running.value
    }

    @Test func withoutAWindowIdleConnectionsCloseAtOnce() async throws {
        let responder = TestResponder { _ in HTTPResponse(status: .ok) }
        let server = try HTTPServer(configuration: Self.configuration(port: 0, sharesPort: false, lastRequest: .zero), responder: responder)
        let running = Task { await server.run() }
        var client = try await TestClient.connect(port: server.port)
        defer { client.close() }
        try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        server.shutdown()
        #expect(await client.waitForClose())
        await running.value
    }
}
