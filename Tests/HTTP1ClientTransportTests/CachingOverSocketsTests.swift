import GatewayTesting
import HTTP1ClientTransport
import HTTP1Server
import HTTPBasics
import Synchronization
import Testing

@testable import UpstreamKit

/// The shared cache in front of the pooled client, against our own server on 127.0.0.1: one
/// upstream request for many callers however they leave, stale answers when the upstream fails
/// or is gone, and a memory bound that holds.
@Suite struct CachingOverSocketsTests {
    /// A server whose answers a test writes, holds and releases, counting the requests it gets.
    final class HeldServer: HTTPResponder {
        private struct State {
            var count = 0
            var held: [CheckedContinuation<Void, Never>] = []
            var holding = false
        }

        private let state = Mutex(State())
        private let answer: @Sendable (HTTPRequest, Int) -> HTTPResponse

        init(answer: @escaping @Sendable (HTTPRequest, Int) -> HTTPResponse) {
            self.answer = answer
        }

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            let count = state.withLock { state in
                state.count += 1
                return state.count
            }
            // Whether to hold is decided where the request is parked, so a release cannot slip between.
            await withCheckedContinuation { continuation in
                let held = state.withLock { state in
                    if state.holding { state.held.append(continuation) }
                    return state.holding
                }
                if !held { continuation.resume() }
            }
            return answer(request, count)
        }

        func hold() { state.withLock { $0.holding = true } }

        func release() {
            let held = state.withLock { state in
                state.holding = false
                defer { state.held = [] }
                return state.held
            }
            for continuation in held { continuation.resume() }
        }

        var count: Int { state.withLock { $0.count } }
    }

    /// Serves `origin` on a free port and runs `body` with a caching transport in front of it.
    static func serve(
        _ origin: HeldServer, store: ResponseCache = ResponseCache(maximumBytes: 1 << 20, maximumEntryBytes: 1 << 16),
        _ body: (CachingTransport, Int, StubUpstream) async throws -> Void
    ) async throws {
        let server = try StubUpstream(tls: nil, fallback: origin)
        defer { server.shutdown() }
        let transport = CachingTransport(wrapping: PooledTransport(), store: store, partition: "origin")
        try await body(transport, server.port, server)
        origin.release()
    }

    static func request(port: Int, _ target: String = "/item", deadline: ContinuousClock.Instant? = nil) -> TransportRequest {
        TransportRequest(
            method: .get, origin: Origin(scheme: "http", host: "127.0.0.1", port: port), target: target, timeout: .seconds(5),
            deadline: deadline, cache: .standard)
    }

    static func answer(_ cacheControl: String, body: String = "{}", status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Cache-Control": cacheControl], body: Array(body.utf8))
    }

    static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func manyCallersOneUpstreamRequestWhateverSomeOfThemDo() async throws {
        let origin = HeldServer { _, _ in Self.answer("max-age=60", body: "shared") }
        origin.hold()
        try await Self.serve(origin) { cache, port, _ in
            let cancelled = Task { try await cache.send(Self.request(port: port)) }
            let staying = (0..<20).map { _ in Task { try await cache.send(Self.request(port: port)) } }
            await Self.until { cache.waitingCallers == 21 }
            // One caller gives up, another runs out of time: neither ends the request for the rest.
            cancelled.cancel()
            await #expect(throws: UpstreamError.cancelled) { try await cancelled.value }
            await #expect(throws: UpstreamError.timedOut) { try await cache.send(Self.request(port: port, deadline: .now + .milliseconds(20))) }
            await Self.until { origin.count == 1 }
            origin.release()
            for task in staying {
                let response = try await task.value
                #expect(String(decoding: response.body, as: UTF8.self) == "shared")
            }
            #expect(origin.count == 1)
            #expect(try await cache.send(Self.request(port: port)).cacheStatus?.outcome == .hit)
        }
    }

    @Test func aStaleAnswerStandsInForA5xxAndForAnUpstreamThatIsGone() async throws {
        let origin = HeldServer { _, count in
            count == 1 ? Self.answer("max-age=0, stale-if-error=60", body: "kept") : Self.answer("no-store", body: "down", status: .serviceUnavailable)
        }
        try await Self.serve(origin) { cache, port, server in
            #expect(try await cache.send(Self.request(port: port)).cacheStatus?.stored == true)
            let onError = try await cache.send(Self.request(port: port))
            #expect(onError.status == .ok && String(decoding: onError.body, as: UTF8.self) == "kept")
            #expect(onError.cacheStatus?.outcome == .staleIfError && onError.cacheStatus?.upstreamStatus == 503)
            server.shutdown()
            let gone = try await cache.send(Self.request(port: port))
            #expect(String(decoding: gone.body, as: UTF8.self) == "kept")
            #expect(gone.cacheStatus?.outcome == .staleIfError && gone.cacheStatus?.upstreamStatus == nil)
        }
    }

    @Test func theMemoryBoundHoldsByEvictingTheLeastRecentlyUsed() async throws {
        let body = String(repeating: "x", count: 4000)
        let origin = HeldServer { _, _ in Self.answer("max-age=60", body: body) }
        let store = ResponseCache(maximumBytes: 50_000, maximumEntryBytes: 10_000)
        try await Self.serve(origin, store: store) { cache, port, _ in
            for item in 0..<40 { _ = try await cache.send(Self.request(port: port, "/item/\(item)")) }
            #expect(store.bytes <= 50_000)
            #expect(store.usage(of: "origin").evictions >= 28)
            #expect(try await cache.send(Self.request(port: port, "/item/39")).cacheStatus?.outcome == .hit)
            #expect(try await cache.send(Self.request(port: port, "/item/0")).cacheStatus?.outcome == .miss)
        }
    }
}
