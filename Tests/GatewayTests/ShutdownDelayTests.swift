import GatewayTesting
import HTTP1Server
import ReferenceScenario
import Testing

@testable import Gateway

/// SIGTERM as a load balancer needs it: readiness fails first while the gateway still accepts
/// and serves, and only after the shutdown delay (or a second signal) does the listener close.
@Suite("Shutdown delay")
struct ShutdownDelayTests {
    @Test("during the delay /readyz fails while new connections are served; a second signal closes the listener")
    func readinessFailsBeforeTheListenerCloses() async throws {
        let stubs = try StubUpstream.scenario()
        defer { stubs.shutdown() }
        let server = try GatewayServer(catalog: .reference, environment: Self.environment(stubs, ["SHUTDOWN_DELAY_MS": "60000"]), logOutput: nil)
        let signals = try server.handleSignals([], reloadSignals: [])
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

    /// The reference gateway's variables, in front of `stubs` on a free loopback port, with `extra`
    /// on top: these tests drive the command's own server and its signal handling, which a
    /// `GatewayUnderTest` leaves out.
    static func environment(_ stubs: StubUpstream, _ extra: [String: String]) -> [String: String] {
        stubs.scenarioEnvironment.merging(["HOST": "127.0.0.1", "PORT": "0"].merging(extra) { $1 }) { $1 }
    }
}

/// What the log says at each step of a shutdown, and what a request the drain timeout cuts gets.
@Suite("Shutdown steps")
struct ShutdownStepTests {
    @Test("one line per step with the counts; a request still running at the drain timeout is answered 503")
    func cutAtTheDrainTimeout() async throws {
        let log = try LogCapture()
        defer { log.close() }
        let output = LogOutput(descriptor: log.descriptor, interval: .milliseconds(10))
        defer { output.close() }
        let stubs = try StubUpstream.scenario()
        defer { stubs.shutdown() }
        // An upstream that never answers within the test; the stub server's own shutdown ends the wait.
        stubs.answer(under: "/swapi/api/people/", after: .seconds(60))
        let environment = ShutdownDelayTests.environment(stubs, ["SHUTDOWN_DELAY_MS": "0", "DRAIN_TIMEOUT_MS": "200"])
        let server = try GatewayServer(catalog: .reference, environment: environment, logOutput: output)
        let signals = try server.handleSignals([], reloadSignals: [])
        let running = Task { await server.server.run() }
        let request = Task {
            try await RawHTTP.exchange("GET /v1/people/1 HTTP/1.1\r\nHost: a\r\n\r\n", port: server.port, timeout: .seconds(20))
        }
        let start = ContinuousClock.now
        while stubs.received.isEmpty && ContinuousClock.now - start < .seconds(10) {
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
