import HTTPBasics
import Synchronization
import Testing
@testable import UpstreamKit

@Suite struct RetryTests {
    private let policy = RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(150),
                                     jitter: false, longestRetryAfter: .seconds(2))

    @Test func retriesOnlyWhatIsSafe() {
        let serviceUnavailable: Result<Response, UpstreamError> = .success(json("", status: .serviceUnavailable))
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: serviceUnavailable) == .milliseconds(50))
        #expect(policy.delay(afterAttempt: 2, of: .get, outcome: .success(json("", status: .badGateway))) == .milliseconds(100))
        #expect(policy.delay(afterAttempt: 3, of: .get, outcome: serviceUnavailable) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .post, outcome: serviceUnavailable) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .patch, outcome: .failure(.connectionFailed(reason: "refused"))) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .put, outcome: .failure(.connectionFailed(reason: "refused"))) == .milliseconds(50))
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: .failure(.timedOut)) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: .failure(.bodyTooLarge(limit: 1))) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: .success(json("", status: .internalServerError))) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: .success(json("", status: .notFound))) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: .success(json("", status: .ok))) == nil)
        #expect(RetryPolicy.never.delay(afterAttempt: 1, of: .get, outcome: serviceUnavailable) == nil)
    }

    @Test func honoursRetryAfterUpToTheCap() {
        let limited = { (value: String) -> Result<Response, UpstreamError> in
            .success(json("", status: .tooManyRequests, headers: ["Retry-After": value]))
        }
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: limited("1")) == .seconds(1))
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: limited("3")) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: .success(json("", status: .tooManyRequests))) == nil)
        #expect(policy.delay(afterAttempt: 1, of: .get, outcome: .success(json("", status: .serviceUnavailable, headers: ["Retry-After": "0"])))
            == .milliseconds(50))
    }

    @Test func backoffGrowsIsCappedAndJittersBelowTheCeiling() {
        #expect(policy.backoff(beforeRetry: 1) == .milliseconds(50))
        #expect(policy.backoff(beforeRetry: 2) == .milliseconds(100))
        #expect(policy.backoff(beforeRetry: 3) == .milliseconds(150))
        #expect(policy.backoff(beforeRetry: 60) == .milliseconds(150))
        var jittered = policy
        jittered.jitter = true
        for _ in 0..<100 {
            let delay = jittered.backoff(beforeRetry: 2)
            #expect(delay >= .zero && delay <= .milliseconds(100))
        }
    }

    private func flaky(_ statuses: [HTTPStatus], attempts: Counter) -> ClosureTransport {
        ClosureTransport { _ throws(UpstreamError) in
            let index = attempts.increment() - 1
            return json("{}", status: statuses[min(index, statuses.count - 1)])
        }
    }

    @Test func retryingTransportBacksOffWithoutSleeping() async throws {
        let time = ManualTime()
        let attempts = Counter()
        let transport = RetryingTransport(wrapping: flaky([.serviceUnavailable, .badGateway, .ok], attempts: attempts),
                                          policy: policy, deadline: .seconds(10), time: time.source)
        let response = try await transport.send(TransportRequest(method: .get, origin: try Bases.swapi.origin, target: "/api/x"))
        #expect(response.status == .ok)
        #expect(attempts.value == 3)
        #expect(time.sleeps == [.milliseconds(50), .milliseconds(100)])
    }

    @Test func noRetryPastTheDeadline() async throws {
        let time = ManualTime()
        let attempts = Counter()
        let transport = RetryingTransport(wrapping: flaky([.serviceUnavailable], attempts: attempts),
                                          policy: policy, deadline: .milliseconds(120), time: time.source)
        let response = try await transport.send(TransportRequest(method: .get, origin: try Bases.swapi.origin, target: "/api/x"))
        #expect(response.status == .serviceUnavailable)
        #expect(attempts.value == 2)
        #expect(time.sleeps == [.milliseconds(50)])
    }

    @Test func noBackoffEndsPastTheRequestsDeadline() async throws {
        let time = ManualTime()
        let attempts = Counter()
        let transport = RetryingTransport(wrapping: flaky([.serviceUnavailable], attempts: attempts),
                                          policy: policy, deadline: .seconds(10), time: time.source)
        var request = TransportRequest(method: .get, origin: try Bases.swapi.origin, target: "/api/x")
        request.deadline = time.source.now() + .milliseconds(120)
        let response = try await transport.send(request)
        #expect(response.status == .serviceUnavailable)
        #expect(attempts.value == 2)
        #expect(time.sleeps == [.milliseconds(50)])

        let limited = RetryingTransport(
            wrapping: ClosureTransport { _ throws(UpstreamError) in
                attempts.increment()
                return json("", status: .serviceUnavailable, headers: ["Retry-After": "1"])
            },
            policy: policy, deadline: .seconds(10), time: time.source)
        request.deadline = time.source.now() + .milliseconds(500)
        #expect(try await limited.send(request).status == .serviceUnavailable)
        #expect(attempts.value == 3)
        #expect(time.sleeps == [.milliseconds(50)])
    }

    @Test func retryBudgetLimitsRetries() async throws {
        var stingy = policy
        stingy.budgetCapacity = 1
        stingy.budgetRatio = 0
        let attempts = Counter()
        let transport = RetryingTransport(wrapping: flaky([.serviceUnavailable], attempts: attempts),
                                          policy: stingy, deadline: .seconds(10), time: ManualTime().source)
        let request = TransportRequest(method: .get, origin: try Bases.swapi.origin, target: "/api/x")
        _ = try await transport.send(request)
        _ = try await transport.send(request)
        #expect(attempts.value == 3)
    }

    @Test func upstreamRetriesConnectionFailuresThenSucceeds() async throws {
        let attempts = Counter()
        let upstream = Upstream(
            name: "deck", baseURL: try Bases.deck,
            settings: UpstreamSettings(retryPolicy: policy),
            transport: ClosureTransport { _ throws(UpstreamError) in
                if attempts.increment() == 1 { throw .connectionFailed(reason: "connection refused") }
                return json(Bodies.shuffle)
            },
            time: ManualTime().source
        )
        let shuffle = try await upstream.send(Request<Shuffle>(path: Path("new", "shuffle", trailingSlash: true)))
        #expect(shuffle.remaining == 52)
        #expect(attempts.value == 2)
    }

    @Test func timeoutTransportBoundsAHangingAttempt() async throws {
        let hanging = TimeoutTransport(wrapping: ClosureTransport { _ throws(UpstreamError) in
            do { try await Task.sleep(for: .seconds(60)) } catch { throw .cancelled }
            return json("{}")
        })
        let start = ContinuousClock.now
        await #expect(throws: UpstreamError.timedOut) {
            try await hanging.send(TransportRequest(method: .get, origin: try Bases.swapi.origin, target: "/", timeout: .milliseconds(20)))
        }
        #expect(start.duration(to: .now) < .seconds(5))
    }

    @Test func upstreamReportsTimeoutsWithItsName() async throws {
        let upstream = Upstream(
            name: "menu", baseURL: try Bases.menu, settings: UpstreamSettings(timeout: .milliseconds(20), retryPolicy: .never),
            transport: ClosureTransport { _ throws(UpstreamError) in
                do { try await Task.sleep(for: .seconds(60)) } catch { throw .cancelled }
                return json("{}")
            }
        )
        let failure = await #expect(throws: UpstreamFailure.self) { try await upstream.send(Request<Dish>(path: Path("dish_of_the_day.json"))) }
        #expect(failure == UpstreamFailure(upstream: "menu", error: .timedOut))
        #expect(failure?.description == "upstream menu timed out")
    }

    @Test func oversizedBodiesAreRefused() async throws {
        let upstream = Upstream(
            name: "menu", baseURL: try Bases.menu, settings: UpstreamSettings(maximumResponseBytes: 10, retryPolicy: .never),
            transport: ClosureTransport { _ throws(UpstreamError) in json(Bodies.menu) }
        )
        await #expect(throws: UpstreamFailure(upstream: "menu", error: .bodyTooLarge(limit: 10))) {
            try await upstream.send(Request<[Dish]>(path: Path("menu_response.json")))
        }
    }
}
