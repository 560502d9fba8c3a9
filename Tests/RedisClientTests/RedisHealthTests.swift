import RedisClient
import Testing

@Suite("Redis health")
struct RedisHealthTests {
    private let start = ContinuousClock.now

    @Test("one transition per change of state, not per outcome")
    func transitions() {
        var health = RedisHealth()
        #expect(health.isUp && health.mayConnect(at: start))
        #expect(health.recordSuccess() == nil)
        #expect(health.recordFailure(at: start, jitter: 0) == .failed(retryAfter: .milliseconds(50)))
        #expect(health.recordFailure(at: start, jitter: 0) == nil)
        #expect(!health.isUp)
        #expect(health.recordSuccess() == .recovered)
        #expect(health.recordSuccess() == nil)
        #expect(health.isUp && health.consecutiveFailures == 0 && health.retryAt == nil)
    }

    @Test("the back-off doubles with each failure in a row, jittered, up to its cap")
    func backoff() {
        var health = RedisHealth(initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1))
        var delays: [Duration] = []
        for _ in 0..<8 {
            _ = health.recordFailure(at: start, jitter: 0.999_999)
            delays.append(health.retryAt! - start)
        }
        let ceilings: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)] + Array(repeating: .seconds(1), count: 4)
        for (delay, ceiling) in zip(delays, ceilings) {
            #expect(delay <= ceiling && delay > ceiling * 0.99)
        }
        _ = health.recordFailure(at: start, jitter: 0)
        #expect(health.retryAt! - start == .milliseconds(500))
        #expect(!health.mayConnect(at: start + .milliseconds(499)))
        #expect(health.mayConnect(at: start + .milliseconds(500)))
    }
}
