import HTTPBasics
import Synchronization
import Testing
@testable import UpstreamKit

/// The cache as a transport: coalescing under cancellation and deadlines, stale answers,
/// revalidation, invalidation and credentials, over an in-memory upstream whose answers a test
/// holds and releases, and a wall clock it moves.
@Suite struct CachingTransportTests {
    /// An upstream that records what it is asked and answers through `answer`, optionally
    /// holding every request until `release()`.
    final class HeldOrigin: Sendable {
        private struct State {
            var requests: [TransportRequest] = []
            var held: [CheckedContinuation<Void, Never>] = []
            var holding = false
        }

        private let state = Mutex(State())
        private let answer: @Sendable (TransportRequest, Int) throws(UpstreamError) -> Response

        init(answer: @escaping @Sendable (TransportRequest, Int) throws(UpstreamError) -> Response) {
            self.answer = answer
        }

        var transport: ClosureTransport {
            ClosureTransport { [self] request throws(UpstreamError) in
                let count = state.withLock { state in
                    state.requests.append(request)
                    return state.requests.count
                }
                // Whether to hold is decided where the request is parked, so a release cannot slip between.
                await withCheckedContinuation { continuation in
                    let held = state.withLock { state in
                        if state.holding { state.held.append(continuation) }
                        return state.holding
                    }
                    if !held { continuation.resume() }
                }
                return try answer(request, count)
            }
        }

        func hold() { state.withLock { $0.holding = true } }

        /// Lets every held request go and stops holding.
        func release() {
            let held = state.withLock { state in
                state.holding = false
                defer { state.held = [] }
                return state.held
            }
            for continuation in held { continuation.resume() }
        }

        var requests: [TransportRequest] { state.withLock { $0.requests } }
        var heldCount: Int { state.withLock { $0.held.count } }
    }

    /// A wall clock that moves only when told.
    final class WallClock: Sendable {
        private let seconds = Mutex(CachePolicyTests.now)
        var now: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
        func advance(by delta: Double) { seconds.withLock { $0 += delta } }
    }

    static func answer(_ cacheControl: String?, body: String = "answer", status: Int = 200, extra: HTTPHeaders = [:]) -> Response {
        var headers = extra
        if let cacheControl { headers.add("Cache-Control", cacheControl) }
        return Response(status: HTTPStatus(code: status), headers: headers, body: Array(body.utf8))
    }

    static func request(_ target: String = "/items/1", headers: HTTPHeaders = [:], settings: CacheSettings? = .standard,
                        deadline: ContinuousClock.Instant? = nil, method: HTTPMethod = .get) -> TransportRequest {
        TransportRequest(method: method, origin: CachePolicyTests.origin, target: target, headers: headers, deadline: deadline, cache: settings)
    }

    static func cache(_ origin: HeldOrigin, clock: WallClock = WallClock(), store: ResponseCache = ResponseCache(maximumBytes: 1 << 20, maximumEntryBytes: 1 << 16))
        -> CachingTransport {
        CachingTransport(wrapping: origin.transport, store: store, partition: "test", now: clock.now)
    }

    /// Yields until `condition` holds: the tasks it waits for run on the cooperative pool.
    static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    // MARK: Fresh answers

    @Test func aFreshAnswerIsServedWithoutAskingTheUpstream() async throws {
        let origin = HeldOrigin { _, _ throws(UpstreamError) in Self.answer("max-age=60") }
        let clock = WallClock()
        let cache = Self.cache(origin, clock: clock)
        let first = try await cache.send(Self.request())
        #expect(first.cacheStatus?.outcome == .miss && first.cacheStatus?.stored == true)
        clock.advance(by: 20)
        let second = try await cache.send(Self.request())
        #expect(second.cacheStatus == CacheStatus(outcome: .hit, remainingFreshness: 40))
        #expect(second.headers["Age"] == "20")
        #expect(String(decoding: second.body, as: UTF8.self) == "answer")
        #expect(origin.requests.count == 1)
    }

    @Test func callsWithCachingOffOrUnsafeMethodsPassThrough() async throws {
        let origin = HeldOrigin { _, count throws(UpstreamError) in Self.answer("max-age=60", body: "\(count)") }
        let cache = Self.cache(origin)
        _ = try await cache.send(Self.request(settings: .off))
        let second = try await cache.send(Self.request(settings: nil))
        #expect(second.cacheStatus == nil)
        #expect(origin.requests.count == 2)
    }

    @Test func onlyIfCachedIsA504WhenNothingIsStored() async throws {
        let origin = HeldOrigin { _, _ throws(UpstreamError) in Self.answer("max-age=60") }
        let response = try await Self.cache(origin).send(Self.request(headers: ["Cache-Control": "only-if-cached"]))
        #expect(response.status.code == 504)
        #expect(origin.requests.isEmpty)
    }

    // MARK: Coalescing

    @Test func concurrentIdenticalCallsShareOneUpstreamRequest() async throws {
        let origin = HeldOrigin { _, _ throws(UpstreamError) in Self.answer("max-age=60") }
        origin.hold()
        let cache = Self.cache(origin)
        let statuses = try await withThrowingTaskGroup(of: CacheStatus?.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.send(Self.request()).cacheStatus } }
            await Self.until { cache.waitingCallers == 20 }
            origin.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(origin.requests.count == 1)
        #expect(statuses.filter { $0?.collapsed == true }.count == 19)
        #expect(statuses.filter { $0?.forwarded == true }.count == 1)
    }

    @Test func aCallerThatGivesUpLeavesTheSharedRequestToTheOthers() async throws {
        let origin = HeldOrigin { _, _ throws(UpstreamError) in Self.answer("max-age=60") }
        origin.hold()
        let cache = Self.cache(origin)
        let leaving = Task { try await cache.send(Self.request()) }
        let staying = Task { try await cache.send(Self.request()) }
        await Self.until { cache.waitingCallers == 2 }
        leaving.cancel()
        await #expect(throws: UpstreamError.cancelled) { try await leaving.value }
        #expect(origin.heldCount == 1)
        origin.release()
        #expect(try await staying.value.status.code == 200)
        #expect(origin.requests.count == 1)
    }

    @Test func eachCallerWaitsWithinItsOwnDeadline() async throws {
        let origin = HeldOrigin { _, _ throws(UpstreamError) in Self.answer("max-age=60") }
        origin.hold()
        let cache = Self.cache(origin)
        let patient = Task { try await cache.send(Self.request()) }
        await Self.until { cache.waitingCallers == 1 }
        await #expect(throws: UpstreamError.timedOut) {
            try await cache.send(Self.request(deadline: .now + .milliseconds(20)))
        }
        origin.release()
        #expect(try await patient.value.status.code == 200)
        #expect(origin.requests.count == 1)
        #expect(origin.requests[0].deadline == nil)
    }

    @Test func aFailureReachesEveryCallerOnceAndIsNotStored() async throws {
        let origin = HeldOrigin { _, count throws(UpstreamError) in
            if count == 1 { throw .connectionFailed(reason: "refused") }
            return Self.answer("max-age=60")
        }
        origin.hold()
        let cache = Self.cache(origin)
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    do throws(UpstreamError) {
                        _ = try await cache.send(Self.request())
                        return false
                    } catch {
                        return error == .connectionFailed(reason: "refused")
                    }
                }
            }
            await Self.until { cache.waitingCallers == 5 }
            origin.release()
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 5)
        #expect(try await cache.send(Self.request()).cacheStatus?.outcome == .miss)
        #expect(origin.requests.count == 2)
    }

    @Test func whenTheSharedAnswerCannotBeStoredEachWaiterAsksForItselfAtOnce() async throws {
        let origin = HeldOrigin { _, count throws(UpstreamError) in Self.answer(nil, body: "deck \(count)") }
        origin.hold()
        let cache = Self.cache(origin)
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { String(decoding: try await cache.send(Self.request()).body, as: UTF8.self) } }
            await Self.until { cache.waitingCallers == 4 }
            origin.release()
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies.count == 4)
        #expect(origin.requests.count == 4)
        // Remembered: the next burst is not coalesced at all.
        origin.hold()
        let burst = Task { try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { _ = try await cache.send(Self.request()) } }
            try await group.waitForAll()
        } }
        await Self.until { origin.heldCount == 3 }
        #expect(cache.waitingCallers == 0)
        origin.release()
        try await burst.value
    }

    // MARK: Stale answers and revalidation

    @Test func aStaleAnswerWithAValidatorIsRevalidatedAndA304ServesTheStoredBody() async throws {
        let origin = HeldOrigin { request, count throws(UpstreamError) in
            count == 1
                ? Self.answer("max-age=10", body: "stored", extra: ["ETag": "\"v1\""])
                : Self.answer("max-age=60", body: "", status: 304, extra: ["ETag": "\"v1\""])
        }
        let clock = WallClock()
        let cache = Self.cache(origin, clock: clock)
        _ = try await cache.send(Self.request())
        clock.advance(by: 30)
        let revalidated = try await cache.send(Self.request())
        #expect(revalidated.status.code == 200)
        #expect(String(decoding: revalidated.body, as: UTF8.self) == "stored")
        #expect(revalidated.cacheStatus?.outcome == .revalidated)
        #expect(origin.requests[1].headers["If-None-Match"] == "\"v1\"")
        clock.advance(by: 30)
        #expect(try await cache.send(Self.request()).cacheStatus?.outcome == .hit)
        #expect(origin.requests.count == 2)
    }

    @Test func staleWhileRevalidateServesAtOnceWithOneBackgroundRefresh() async throws {
        let origin = HeldOrigin { _, count throws(UpstreamError) in Self.answer("max-age=10, stale-while-revalidate=60", body: "v\(count)") }
        let clock = WallClock()
        let cache = Self.cache(origin, clock: clock)
        _ = try await cache.send(Self.request())
        clock.advance(by: 20)
        origin.hold()
        for _ in 0..<3 {
            let stale = try await cache.send(Self.request())
            #expect(stale.cacheStatus?.outcome == .staleWhileRevalidate)
            #expect(String(decoding: stale.body, as: UTF8.self) == "v1")
        }
        await Self.until { origin.heldCount == 1 }
        origin.release()
        await Self.until { origin.requests.count == 2 && cache.waitingCallers == 0 }
        var refreshed = try await cache.send(Self.request())
        while refreshed.cacheStatus?.outcome != .hit {
            // A stored answer comes back without suspending: yield, so the refresh can run.
            await Task.yield()
            refreshed = try await cache.send(Self.request())
        }
        #expect(String(decoding: refreshed.body, as: UTF8.self) == "v2")
        #expect(origin.requests.count == 2)
    }

    @Test func a304NamingAnotherAnswerHasTheAnswerAskedForAgainWithoutConditions() async throws {
        let origin = HeldOrigin { request, count throws(UpstreamError) in
            switch count {
            case 1: return Self.answer("max-age=10", body: "v1", extra: ["ETag": "\"v1\""])
            case 2: return Self.answer("max-age=10", body: "", status: 304, extra: ["ETag": "\"v9\""])
            default: return Self.answer("max-age=10", body: "v2", extra: ["ETag": "\"v2\""])
            }
        }
        let clock = WallClock()
        let cache = Self.cache(origin, clock: clock)
        _ = try await cache.send(Self.request())
        clock.advance(by: 30)
        let answer = try await cache.send(Self.request())
        #expect(answer.status.code == 200 && String(decoding: answer.body, as: UTF8.self) == "v2")
        #expect(origin.requests.count == 3)
        #expect(origin.requests[1].headers["If-None-Match"] == "\"v1\"" && origin.requests[2].headers["If-None-Match"] == nil)
    }

    @Test func aFailedBackgroundRefreshKeepsTheStaleAnswerAndIsTriedAgain() async throws {
        let origin = HeldOrigin { _, count throws(UpstreamError) in
            if count == 2 { throw .connectionFailed(reason: "reset") }
            return Self.answer("max-age=10, stale-while-revalidate=60", body: "v\(count)")
        }
        let clock = WallClock()
        let cache = Self.cache(origin, clock: clock)
        _ = try await cache.send(Self.request())
        clock.advance(by: 20)
        #expect(String(decoding: try await cache.send(Self.request()).body, as: UTF8.self) == "v1")
        await Self.until { origin.requests.count == 2 && cache.waitingCallers == 0 }
        var answer = try await cache.send(Self.request())
        #expect(String(decoding: answer.body, as: UTF8.self) == "v1" && answer.cacheStatus?.outcome == .staleWhileRevalidate)
        while answer.cacheStatus?.outcome != .hit {
            // A stored answer comes back without suspending: yield, so the refresh can run.
            await Task.yield()
            answer = try await cache.send(Self.request())
        }
        #expect(String(decoding: answer.body, as: UTF8.self) == "v3")
    }

    @Test func staleIfErrorStandsInForFailuresWithinItsWindow() async throws {
        let origin = HeldOrigin { _, count throws(UpstreamError) in
            switch count {
            case 1: return Self.answer("max-age=10, stale-if-error=60", body: "kept")
            case 2: return Self.answer(nil, status: 503)
            case 3: throw .timedOut
            default: throw .circuitOpen(retryAfter: nil)
            }
        }
        let clock = WallClock()
        let cache = Self.cache(origin, clock: clock)
        _ = try await cache.send(Self.request())
        clock.advance(by: 20)
        for _ in 0..<3 {
            let stale = try await cache.send(Self.request())
            #expect(stale.status.code == 200 && String(decoding: stale.body, as: UTF8.self) == "kept")
            #expect(stale.cacheStatus?.outcome == .staleIfError)
        }
        clock.advance(by: 60)
        await #expect(throws: UpstreamError.circuitOpen(retryAfter: nil)) { try await cache.send(Self.request()) }
    }

    // MARK: Keys and invalidation

    @Test func answersToTheCallersOwnCredentialsAreNeverServedToAnotherCaller() async throws {
        let origin = HeldOrigin { request, _ throws(UpstreamError) in
            Self.answer("public, max-age=60", body: request.headers["Authorization"] ?? request.headers["X-Api-Key"] ?? "anonymous")
        }
        let cache = Self.cache(origin)
        for (headers, expected) in [
            (["Authorization": "Bearer alice"], "Bearer alice"), (["Authorization": "Bearer bob"], "Bearer bob"),
            ([:], "anonymous"), (["X-Api-Key": "k1"], "k1"), (["Authorization": "Bearer alice"], "Bearer alice"),
        ] as [(HTTPHeaders, String)] {
            let response = try await cache.send(Self.request(headers: headers))
            #expect(String(decoding: response.body, as: UTF8.self) == expected)
            #expect(response.cacheStatus?.isShareable == headers.isEmpty)
        }
        #expect(origin.requests.count == 4)
    }

    @Test func anAuthorizedAnswerWithoutPublicIsNotStored() async throws {
        let origin = HeldOrigin { _, _ throws(UpstreamError) in Self.answer("max-age=60") }
        let cache = Self.cache(origin)
        for _ in 0..<2 { _ = try await cache.send(Self.request(headers: ["Authorization": "Bearer alice"])) }
        #expect(origin.requests.count == 2)
        // The gateway's own credentials (added below the cache) are shared unless the settings say otherwise.
        var gatewayCredentials = Self.request(settings: CacheSettings(sharesGatewayCredentials: false))
        gatewayCredentials.requiresAuthentication = true
        for _ in 0..<2 { _ = try await cache.send(gatewayCredentials) }
        #expect(origin.requests.count == 4)
    }

    @Test func anUnsafeRequestThatSucceedsInvalidatesTheStoredAnswer() async throws {
        let origin = HeldOrigin { request, _ throws(UpstreamError) in
            request.method == .get ? Self.answer("max-age=60") : Self.answer(nil, status: 201, extra: ["Location": "/items/2"])
        }
        let cache = Self.cache(origin)
        _ = try await cache.send(Self.request("/items/2"))
        _ = try await cache.send(Self.request())
        #expect(try await cache.send(Self.request()).cacheStatus?.outcome == .hit)
        let created = try await cache.send(Self.request(method: .post))
        #expect(created.cacheStatus?.outcome == .bypass)
        #expect(try await cache.send(Self.request()).cacheStatus?.outcome == .miss)
        #expect(try await cache.send(Self.request("/items/2")).cacheStatus?.outcome == .miss)
    }

    @Test func theCallersConditionsAreAnsweredWithA304FromTheStore() async throws {
        let origin = HeldOrigin { _, _ throws(UpstreamError) in Self.answer("max-age=60", extra: ["ETag": "\"v1\""]) }
        let cache = Self.cache(origin)
        let first = try await cache.send(Self.request(headers: ["If-None-Match": "\"v1\""]))
        #expect(first.status.code == 304)
        #expect(origin.requests[0].headers["If-None-Match"] == nil)
        #expect(try await cache.send(Self.request(headers: ["If-None-Match": "\"v0\""])).status.code == 200)
        #expect(origin.requests.count == 1)
    }
}
