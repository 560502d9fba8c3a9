import HTTPBasics
import Synchronization
import Testing
@testable import UpstreamKit

@Suite struct CircuitBreakerTests {
    @Test func stateMachine() throws {
        let start = ContinuousClock.now
        var breaker = CircuitBreaker(settings: CircuitBreakerSettings(failureThreshold: 2, coolDown: .seconds(10)))
        try breaker.admit(at: start)
        breaker.record(.failure, at: start)
        breaker.record(.success, at: start)
        #expect(breaker.state == .closed(consecutiveFailures: 0))
        breaker.record(.failure, at: start)
        breaker.record(.neutral, at: start)
        breaker.record(.failure, at: start)
        #expect(breaker.state == .open(until: start + .seconds(10)))
        #expect(throws: UpstreamError.circuitOpen(retryAfter: .seconds(4))) { try breaker.admit(at: start + .seconds(6)) }
        try breaker.admit(at: start + .seconds(10))
        #expect(breaker.state == .halfOpen(probeInFlight: true))
        #expect(throws: UpstreamError.circuitOpen(retryAfter: nil)) { try breaker.admit(at: start + .seconds(10)) }
        breaker.record(.neutral, at: start + .seconds(10))
        try breaker.admit(at: start + .seconds(11))
        breaker.record(.failure, at: start + .seconds(11))
        #expect(breaker.state == .open(until: start + .seconds(21)))
        try breaker.admit(at: start + .seconds(21))
        breaker.record(.success, at: start + .seconds(21))
        #expect(breaker.state == .closed(consecutiveFailures: 0))
    }

    @Test("by default only transport failures count; the upstream's answers, whatever their status, do not")
    func defaultOutcomes() {
        let settings = CircuitBreakerSettings()
        #expect(settings.outcome(of: .timedOut) == .failure)
        #expect(settings.outcome(of: .connectionFailed(reason: "refused")) == .failure)
        #expect(settings.outcome(of: .invalidResponse(reason: "x")) == .failure)
        #expect(settings.outcome(of: .untrustedCertificate(reason: "x")) == .failure)
        #expect(settings.outcome(of: .status(.badGateway, retryAfter: nil)) == .success)
        #expect(settings.outcome(of: .status(.tooManyRequests, retryAfter: nil)) == .success)
        #expect(settings.outcome(of: .status(.notFound, retryAfter: nil)) == .success)
        #expect(settings.outcome(of: .decodingFailed(reason: "x")) == .success)
        #expect(settings.outcome(of: .bodyTooLarge(limit: 1)) == .success)
        #expect(settings.outcome(of: .refusedLink("x")) == .neutral)
        #expect(settings.outcome(of: .cancelled) == .neutral)
    }

    @Test("counting server errors adds 5xx and bodies that cannot be used, never 4xx or 429")
    func serverErrorOutcomes() {
        let settings = CircuitBreakerSettings(countsServerErrors: true)
        #expect(settings.outcome(of: .status(.badGateway, retryAfter: nil)) == .failure)
        #expect(settings.outcome(of: .status(.internalServerError, retryAfter: nil)) == .failure)
        #expect(settings.outcome(of: .decodingFailed(reason: "x")) == .failure)
        #expect(settings.outcome(of: .undecodableBody(reason: "x")) == .failure)
        #expect(settings.outcome(of: .status(.tooManyRequests, retryAfter: nil)) == .success)
        #expect(settings.outcome(of: .status(.notFound, retryAfter: nil)) == .success)
        #expect(settings.outcome(of: .timedOut) == .failure)
    }

    @Test("by default an upstream answering 503 keeps its circuit closed; a refused one opens it")
    func defaultSettingsOpenOnlyOnTransportFailures() async throws {
        let refusing = Mutex(false)
        let attempts = Counter()
        let upstream = Upstream(
            name: "swapi", baseURL: try Bases.swapi,
            settings: UpstreamSettings(retryPolicy: .never, circuitBreaker: CircuitBreakerSettings(failureThreshold: 3, coolDown: .seconds(30))),
            transport: ClosureTransport { _ throws(UpstreamError) in
                attempts.increment()
                if refusing.withLock({ $0 }) { throw .connectionFailed(reason: "refused") }
                return json("", status: .serviceUnavailable)
            }
        )
        let request = Request<Void>(path: try Path("people", "1", trailingSlash: true))
        for _ in 0..<10 {
            await #expect(throws: UpstreamFailure(upstream: "swapi", error: .status(.serviceUnavailable, retryAfter: nil))) {
                try await upstream.send(request)
            }
        }
        #expect(upstream.circuitState == .closed(consecutiveFailures: 0))
        refusing.withLock { $0 = true }
        for _ in 0..<3 { await #expect(throws: UpstreamFailure.self) { try await upstream.send(request) } }
        if case .open = upstream.circuitState {} else { Issue.record("three refused connections open the circuit") }
        #expect(attempts.value == 13)
    }

    @Test("counting server errors, 503s open the circuit; it rests, probes and closes")
    func upstreamOpensRestsProbesAndCloses() async throws {
        let time = ManualTime()
        let healthy = Mutex(false)
        let attempts = Counter()
        let upstream = Upstream(
            name: "swapi", baseURL: try Bases.swapi,
            settings: UpstreamSettings(retryPolicy: .never, circuitBreaker: CircuitBreakerSettings(failureThreshold: 3, coolDown: .seconds(30), countsServerErrors: true)),
            transport: ClosureTransport { _ throws(UpstreamError) in
                attempts.increment()
                return healthy.withLock { $0 } ? json("{}") : json("", status: .serviceUnavailable)
            },
            time: time.source
        )
        let request = Request<Void>(path: try Path("people", "1", trailingSlash: true))
        for _ in 0..<3 {
            await #expect(throws: UpstreamFailure(upstream: "swapi", error: .status(.serviceUnavailable, retryAfter: nil))) {
                try await upstream.send(request)
            }
        }
        await #expect(throws: UpstreamFailure(upstream: "swapi", error: .circuitOpen(retryAfter: .seconds(30)))) {
            try await upstream.send(request)
        }
        #expect(attempts.value == 3)
        time.advance(by: .seconds(30))
        await #expect(throws: UpstreamFailure.self) { try await upstream.send(request) }
        #expect(attempts.value == 4)
        if case .open = upstream.circuitState {} else { Issue.record("a failed probe reopens the circuit") }
        time.advance(by: .seconds(30))
        healthy.withLock { $0 = true }
        try await upstream.send(request)
        #expect(upstream.circuitState == .closed(consecutiveFailures: 0))
        try await upstream.send(request)
        #expect(attempts.value == 6)
    }

    /// An upstream whose circuit opened on one refused call and is half-open now, answering
    /// what `answer` says from then on.
    private static func halfOpen(
        _ settings: UpstreamSettings = UpstreamSettings(), cache: ResponseCache? = nil,
        answer: @escaping @Sendable () -> Response
    ) async throws -> Upstream {
        let time = ManualTime()
        let refusing = Mutex(true)
        var settings = settings
        settings.retryPolicy = .never
        settings.circuitBreaker = CircuitBreakerSettings(
            failureThreshold: 1, coolDown: .seconds(30), countsServerErrors: settings.circuitBreaker.countsServerErrors)
        let upstream = Upstream(
            name: "swapi", baseURL: try Bases.swapi, settings: settings,
            transport: ClosureTransport { _ throws(UpstreamError) in
                if refusing.withLock({ $0 }) { throw .connectionFailed(reason: "refused") }
                return answer()
            },
            cache: cache, time: time.source)
        await #expect(throws: UpstreamFailure.self) { try await upstream.send(Request<Person>(path: try Path("people", "0", trailingSlash: true))) }
        refusing.withLock { $0 = false }
        time.advance(by: .seconds(30))
        return upstream
    }

    @Test("a probe whose 2xx is never judged (too large to use) still frees the half-open slot")
    func unjudgedProbeFreesTheSlot() async throws {
        var settings = UpstreamSettings()
        settings.maximumResponseBytes = 16
        let upstream = try await Self.halfOpen(settings) { json(Bodies.luke) }
        await #expect(throws: UpstreamFailure(upstream: "swapi", error: .bodyTooLarge(limit: 16))) {
            try await upstream.send(Request<Person>(path: try Path("people", "1", trailingSlash: true)))
        }
        #expect(upstream.circuitState == .halfOpen(probeInFlight: false))
    }

    @Test("a probe's 2xx counts once decoded: an undecodable one reopens the circuit when bodies count")
    func probeSettledAfterDecoding() async throws {
        var counting = UpstreamSettings()
        counting.circuitBreaker.countsServerErrors = true
        let failing = try await Self.halfOpen(counting) { json("[]") }
        await #expect(throws: UpstreamFailure.self) {
            try await failing.send(Request<Person>(path: try Path("people", "1", trailingSlash: true)))
        }
        if case .open = failing.circuitState {} else { Issue.record("an undecodable probe answer reopens the circuit") }
        let healthy = try await Self.halfOpen { json(Bodies.luke) }
        _ = try await healthy.send(Request<Person>(path: try Path("people", "1", trailingSlash: true)))
        #expect(healthy.circuitState == .closed(consecutiveFailures: 0))
    }

    @Test("a probe's answer stored by the shared cache closes the circuit; a stored answer served later judges nothing")
    func storedProbeAnswerClosesTheCircuit() async throws {
        let upstream = try await Self.halfOpen(cache: ResponseCache(maximumBytes: 1 << 20, maximumEntryBytes: 1 << 16)) {
            json(Bodies.luke, headers: ["Content-Type": "application/json", "Cache-Control": "max-age=60"])
        }
        let request = Request<Person>(path: try Path("people", "1", trailingSlash: true))
        let probe = try await upstream.response(to: request)
        #expect(probe.cacheStatus?.stored == true)
        #expect(upstream.circuitState == .closed(consecutiveFailures: 0))
        let stored = try await upstream.response(to: request)
        #expect(stored.cacheStatus?.outcome == .hit)
        #expect(upstream.circuitState == .closed(consecutiveFailures: 0))
    }
}
