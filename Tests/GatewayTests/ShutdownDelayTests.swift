import HTTPServerCore
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

/// What the log says at each step of a shutdown, and what a request the drain timeout cuts gets.
@Suite("Shutdown steps")
struct ShutdownStepTests {
    @Test("one line per step with the counts; a request still running at the drain timeout is answered 503")
    func cutAtTheDrainTimeout() async throws {
        let log = try LogCapture()
        defer { log.close() }
        let test = try TestGateway(
            environment: ["HOST": "127.0.0.1", "PORT": "0", "SHUTDOWN_DELAY_MS": "0", "DRAIN_TIMEOUT_MS": "200"], logOutput: log.output)
        defer { test.shutdown() }
        // An upstream that never answers within the test; the stub server's own shutdown ends the wait.
        test.stubs.override("/swapi/api/people/") { _ in
            try? await Task.sleep(for: .seconds(60))
            return HTTPResponse(status: .ok)
        }
        let server = try GatewayServer(gateway: test.gateway)
        let signals = try server.handleSignals([])
        let running = Task { await server.server.run() }
        let request = Task {
            try await RawHTTP.exchange("GET /v1/people/1 HTTP/1.1\r\nHost: a\r\n\r\n", port: server.port, timeout: .seconds(20))
        }
        let start = ContinuousClock.now
        while test.stubs.received.isEmpty && ContinuousClock.now - start < .seconds(10) {
            await Task.yield()
        }
        signals.requestShutdown()
        let answer = try await request.value
        await running.value
        signals.cancel()
        #expect(RawHTTP.status(of: answer) == 503)
        #expect(answer.contains("the gateway is shutting down; the request ran past the drain timeout"))
        let lines = await log.lines { $0.contains { $0.contains("cut at the drain timeout: 1") } }
        let messages = lines.filter { $0.contains(#""message":"shutdown: "#) }
        #expect(messages.count == 3)
        #expect(messages.first?.contains("signal received; /readyz fails while requests are still served for 0 ms") == true)
        #expect(messages.first?.contains("in flight: 1") == true)
        #expect(messages.dropFirst().first?.contains("listener closed; draining for at most 200 ms; in flight: 1, connections: 1") == true)
        #expect(messages.last?.contains("drain over; drained: 0, cut at the drain timeout: 1") == true)
        let access = try #require(lines.first { $0.contains(#""route":"/v1/people/:id""#) })
        #expect(access.contains(#""status":503"#))
    }
}
