import HTTPBasics
import Synchronization
import Testing
@testable import Upstream

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

    @Test func outcomes() {
        #expect(CircuitBreaker.outcome(of: .timedOut) == .failure)
        #expect(CircuitBreaker.outcome(of: .status(.badGateway, retryAfter: nil)) == .failure)
        #expect(CircuitBreaker.outcome(of: .status(.notFound, retryAfter: nil)) == .success)
        #expect(CircuitBreaker.outcome(of: .refusedLink("x")) == .neutral)
        #expect(CircuitBreaker.outcome(of: .cancelled) == .neutral)
    }

    @Test func upstreamOpensRestsProbesAndCloses() async throws {
        let time = ManualTime()
        let healthy = Mutex(false)
        let attempts = Counter()
        let upstream = Upstream(
            name: "swapi", baseURL: try Bases.swapi,
            settings: UpstreamSettings(retryPolicy: .never, circuitBreaker: CircuitBreakerSettings(failureThreshold: 3, coolDown: .seconds(30))),
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
}
