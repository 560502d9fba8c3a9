import HTTPBasics
import Synchronization
import Testing

@testable import HTTP1Server

@Suite struct ServerShutdownTests {
    @Test func finishesInFlightRequestsClosesIdleOnesAndReturns() async throws {
        let (events, recorder) = AsyncStream.makeStream(of: Void.self)
        let gate = Gate()
        let responder = TestResponder { request in
            if request.path == "/slow" {
                recorder.yield()
                await gate.wait()
            }
            return HTTPResponse(status: .ok, body: Array(request.path.utf8))
        }
        var configuration = ServerConfiguration(shutdownGracePeriod: .seconds(10))
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration, responder: responder)
        let running = Task { await server.run() }

        var idle = try await TestClient.connect(port: server.port)
        defer { idle.close() }
        try await idle.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().status == 200)

        var busy = try await TestClient.connect(port: server.port)
        defer { busy.close() }
        try await busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        var iterator = events.makeAsyncIterator()
        await iterator.next()

        server.shutdown()
        #expect(await idle.waitForClose())
        #expect(try await isRefused(port: server.port))

        gate.open()
        let response = try await busy.readResponse()
        #expect(response.text == "/slow")
        #expect(response.header("Connection") == "close")
        #expect(await busy.waitForClose())
        busy.close()
        await running.value
        #expect(server.metrics.openConnections == 0)
    }

    @Test func cancelsRequestsThatOutliveTheGracePeriod() async throws {
        let responder = TestResponder { _ in
            try? await Task.sleep(for: .seconds(30))
            return HTTPResponse(status: Task.isCancelled ? .serviceUnavailable : .ok)
        }
        var configuration = ServerConfiguration(shutdownGracePeriod: .milliseconds(100))
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try HTTPServer(configuration: configuration, responder: responder)
        let running = Task { await server.run() }
        var client = try await TestClient.connect(port: server.port)
        defer { client.close() }
        try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        while server.metrics.inFlightRequests == 0 { await Task.yield() }
        let started = ContinuousClock.now
        server.shutdown()
        await running.value
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try await client.readResponse().header("Connection") == "close")
        #expect(await client.waitForClose())
    }

    // No real signal is sent in these tests, because it would reach the whole test process (and
    // has hung libdispatch's worker pool there): `requestShutdown()` writes the byte a signal would.

    @Test func runsTheShutdownHookOnceBeforeDraining() async throws {
        let hookCalls = Mutex(0)
        let server = try HTTPServer(configuration: Self.loopbackConfiguration, responder: TestResponder.echo)
        let running = Task { await server.run() }
        let signals = try ShutdownSignalHandler(server: server, signals: [], beforeShutdown: { hookCalls.withLock { $0 += 1 } })
        for _ in 0..<3 {
            signals.requestShutdown()
        }
        await running.value
        signals.cancel()
        #expect(hookCalls.withLock { $0 } == 1)
    }

    @Test func keepsAcceptingAndServingDuringTheDelayUntilASecondSignal() async throws {
        let (hookRuns, recorder) = AsyncStream.makeStream(of: Void.self)
        let server = try HTTPServer(configuration: Self.loopbackConfiguration, responder: TestResponder.echo)
        let running = Task { await server.run() }
        let signals = try ShutdownSignalHandler(server: server, signals: [], delay: .seconds(60), beforeShutdown: { recorder.yield() })
        var earlier = try await TestClient.connect(port: server.port)
        defer { earlier.close() }

        signals.requestShutdown()
        var iterator = hookRuns.makeAsyncIterator()
        await iterator.next()
        var later = try await TestClient.connect(port: server.port)
        defer { later.close() }
        try await later.send("GET /during-the-delay HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try await later.readResponse()
        #expect(response.status == 200)
        #expect(response.header("Connection") == nil)
        try await earlier.send("GET /kept-alive HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await earlier.readResponse().status == 200)

        let secondSignal = ContinuousClock.now
        signals.requestShutdown()
        #expect(await later.waitForClose())
        await running.value
        signals.cancel()
        #expect(ContinuousClock.now - secondSignal < .seconds(30))
        #expect(try await isRefused(port: server.port))
    }

    @Test func stopsAcceptingWhenTheDelayEnds() async throws {
        let delay = Duration.milliseconds(200)
        let (hookRuns, recorder) = AsyncStream.makeStream(of: ContinuousClock.Instant.self)
        let server = try HTTPServer(configuration: Self.loopbackConfiguration, responder: TestResponder.echo)
        let running = Task { await server.run() }
        let signals = try ShutdownSignalHandler(server: server, signals: [], delay: delay, beforeShutdown: { recorder.yield(.now) })
        signals.requestShutdown()
        var iterator = hookRuns.makeAsyncIterator()
        let hookRan = try #require(await iterator.next())
        await running.value
        signals.cancel()
        #expect(ContinuousClock.now - hookRan >= delay)
        #expect(try await isRefused(port: server.port))
    }

    private static var loopbackConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        return configuration
    }

    /// A new connection after shutdown is refused, or accepted by the kernel and closed unanswered.
    private func isRefused(port: Int) async throws -> Bool {
        do {
            var client = try await TestClient.connect(port: port)
            defer { client.close() }
            try? await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            return await client.waitForClose()
        } catch {
            return true
        }
    }
}
