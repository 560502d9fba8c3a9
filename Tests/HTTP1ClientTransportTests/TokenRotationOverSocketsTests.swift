import GatewayTesting
import HTTP1ClientTransport
import HTTP1Server
import HTTPBasics
import Synchronization
import Testing

@testable import UpstreamKit

/// A bearer token rotated by the upstream while calls are in flight, over the pooled client and
/// our own server: the answer carrying the new token is held until the 401s to the old one have
/// been read, the order in which a resend used to be missed.
@Suite struct TokenRotationOverSocketsTests {
    /// Accepts one token at a time. Armed, it rotates on the next request with the valid token:
    /// the new token becomes the only valid one at once, and that request's answer, which carries
    /// it, is held until `release()`.
    final class RotatingServer: HTTPResponder {
        private struct State {
            var valid = "first"
            var armed = false
            var held: CheckedContinuation<Void, Never>?
            var released = false
            var received: [String] = []
        }

        private let state = Mutex(State())
        let rotates: Bool

        init(rotates: Bool = true) {
            self.rotates = rotates
        }

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            let authorization = request.headers["Authorization"] ?? ""
            let (accepted, rotated) = state.withLock { state in
                state.received.append(authorization)
                guard rotates, authorization == "Bearer " + state.valid else { return (false, nil as String?) }
                guard state.armed else { return (true, nil) }
                state.armed = false
                state.valid = "second"
                return (true, state.valid)
            }
            guard accepted else { return HTTPResponse(status: .unauthorized) }
            guard let rotated else { return .json(Array("{}".utf8)) }
            // Whether to hold is decided where the answer is parked, so a release cannot slip between.
            await withCheckedContinuation { continuation in
                let holds = state.withLock { state in
                    if !state.released { state.held = continuation }
                    return !state.released
                }
                if !holds { continuation.resume() }
            }
            return .json(Array("{}".utf8), headers: ["X-Refreshed-Token": rotated])
        }

        func arm() { state.withLock { $0.armed = true } }

        func release() {
            state.withLock { state in
                state.released = true
                defer { state.held = nil }
                return state.held
            }?.resume()
        }

        var received: [String] { state.withLock { $0.received } }
    }

    static func serve(_ origin: RotatingServer, _ body: (Upstream, BearerToken) async throws -> Void) async throws {
        let server = try StubUpstream(tls: nil, fallback: origin)
        defer { server.shutdown() }
        let token = try BearerToken("first")
        let upstream = Upstream(
            name: "rotating", baseURL: try BaseURL("http://127.0.0.1:\(server.port)"),
            settings: UpstreamSettings(retryPolicy: .never, actions: [token]), transport: PooledTransport())
        try await body(upstream, token)
        origin.release()
    }

    /// Calls that have returned.
    final class Finished: Sendable {
        let count = Atomic(0)
    }

    /// Calls the upstream once; returns why the call failed, or nil when it succeeded.
    static func call(_ upstream: Upstream, _ finished: Finished = Finished()) async -> UpstreamError? {
        defer { finished.count.add(1, ordering: .relaxed) }
        do {
            try await upstream.send(Request<Void>(path: try! Path("people", "1"), requiresAuthentication: true))
            return nil
        } catch {
            return error.error
        }
    }

    @Test func callsAnswered401BeforeTheNewTokenIsReadAreResentWithIt() async throws {
        let origin = RotatingServer()
        try await Self.serve(origin) { upstream, token in
            #expect(await Self.call(upstream) == nil)
            origin.arm()
            let finished = Finished()
            async let first = Self.call(upstream, finished), second = Self.call(upstream, finished), third = Self.call(upstream, finished)
            // Two calls hold 401s to the old token while the third's answer, with the new one, is
            // held; a call that gives up on its 401 instead ends the wait, and the test fails below.
            while token.waitingCount < 2 && finished.count.load(ordering: .relaxed) == 0 { await Task.yield() }
            origin.release()
            let results = await [first, second, third]
            #expect(results == [nil, nil, nil])
            #expect(origin.received == Array(repeating: "Bearer first", count: 4) + ["Bearer second", "Bearer second"])
        }
    }

    @Test func aBrokenCredentialFailsEveryParallelCallWithoutAResend() async throws {
        let origin = RotatingServer(rotates: false)
        try await Self.serve(origin) { upstream, token in
            async let first = Self.call(upstream), second = Self.call(upstream), third = Self.call(upstream)
            let results = await [first, second, third]
            #expect(results == Array(repeating: .status(.unauthorized, retryAfter: nil), count: 3))
            #expect(origin.received.count == 3)
            #expect(token.waitingCount == 0)
        }
    }
}
