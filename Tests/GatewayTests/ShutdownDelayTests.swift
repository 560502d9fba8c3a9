import Testing

@testable import Gateway

/// SIGTERM as a load balancer needs it: readiness fails first while the gateway still accepts
/// and serves, and only after the shutdown delay (or a second signal) does the listener close.
@Suite("Shutdown delay")
struct ShutdownDelayTests {
    @Test("during the delay /readyz fails while new connections are served; a second signal closes the listener")
    func readinessFailsBeforeTheListenerCloses() async throws {
        let test = try TestGateway(environment: ["HOST": "127.0.0.1", "PORT": "0", "SHUTDOWN_DELAY_MS": "60000"])
        defer { test.shutdown() }
        let server = try GatewayServer(gateway: test.gateway)
        let signals = try server.handleSignals([])
        let running = Task { await server.server.run() }
        let readiness = "GET /readyz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        #expect(RawHTTP.status(of: try await RawHTTP.exchange(readiness, port: server.port)) == 200)

        let signalled = ContinuousClock.now
        signals.requestShutdown()
        // The hook runs on the signal thread: poll, within a deadline, for its effect.
        var status = 200
        while status == 200 && ContinuousClock.now - signalled < .seconds(10) {
            status = RawHTTP.status(of: try await RawHTTP.exchange(readiness, port: server.port)) ?? 0
        }
        #expect(status == 503)
        let menu = try await RawHTTP.exchange("GET /v1/menu HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(RawHTTP.status(of: menu) == 200)

        signals.requestShutdown()
        await running.value
        signals.cancel()
        #expect(ContinuousClock.now - signalled < .seconds(30))
        await #expect(throws: (any Error).self) {
            _ = try await RawHTTP.exchange(readiness, port: server.port, timeout: .seconds(2))
        }
    }
}
