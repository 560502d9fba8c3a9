import GatewayTesting
import HTTP1Client
import HTTP1ClientTransport
import HTTPBasics
import Synchronization
import Testing
import UpstreamKit

@testable import Gateway

/// An upstream's calls wait in one queue, its connection pool's, with one bound: a burst beyond
/// the connections and the waiting calls gets `.overloaded` (503) at once, and every other call
/// waits there once and goes out on a connection already open.
@Suite("End to end: one queue per upstream")
struct UpstreamQueueTests {
    /// Holds the upstream's answers until opened.
    final class Gate: Sendable {
        private let state = Mutex<(isOpen: Bool, held: [CheckedContinuation<Void, Never>])>((false, []))

        func pass() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.isOpen { state.held.append(continuation) }
                    return state.isOpen
                }
                if isOpen { continuation.resume() }
            }
        }

        func open() {
            let held = state.withLock { state in
                state.isOpen = true
                defer { state.held = [] }
                return state.held
            }
            for continuation in held { continuation.resume() }
        }
    }

    private static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test("a burst beyond the connections and the queue is refused as overloaded; the rest wait once")
    func burstBeyondTheQueue() async throws {
        let gate = Gate()
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/slow") { _ in
            await gate.pass()
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"{"ok":true}"#.utf8))
        }
        var configuration = UpstreamConfiguration(name: "slow", baseURL: try BaseURL(stub.baseURL), maximumConnections: 2)
        configuration.maximumWaitingCalls = 3
        configuration.retryPolicy = .never
        // Two loops share out the limits as the gateway's do; the test's tasks run on no loop of
        // their own, so every call meets the same pool: one connection and two waiting calls.
        let client = HTTPClient(configuration: UpstreamTransports(eventLoopCount: 2).clientConfiguration(for: configuration))
        let slow = try ConfiguredUpstream(configuration: configuration, transport: PooledTransport(client: client))
        let request = Request<Void>(path: try Path("slow"))

        let admitted = (0..<3).map { _ in Task { try await slow.upstream.send(request) } }
        await Self.until { stub.received.count == 1 && client.statistics.waitingRequests == 2 }
        let overloaded = UpstreamFailure(upstream: "slow", error: .overloaded)
        await #expect(throws: overloaded) { try await slow.upstream.send(request) }
        #expect(overloaded.problem.status == .serviceUnavailable)
        #expect(stub.received.count == 1)

        gate.open()
        for call in admitted { try await call.value }
        let statistics = client.statistics
        #expect(stub.received.count == 3)
        #expect(statistics.connectionsOpened == 1)
        #expect(statistics.waitingRequests == 0)
        #expect(slow.upstream.circuitState == .closed(consecutiveFailures: 0))
    }
}
