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

    @Test("no background attempt while up; while down, one at the end of each back-off")
    func backgroundAttempts() {
        var health = RedisHealth(initialBackoff: .milliseconds(100), maximumBackoff: .seconds(10))
        #expect(health.backgroundAttemptAt == nil)
        _ = health.recordFailure(at: start, jitter: 0)
        #expect(health.backgroundAttemptAt == start + .milliseconds(50))
        _ = health.recordFailure(at: start + .milliseconds(50), jitter: 0.5)
        #expect(health.backgroundAttemptAt == start + .milliseconds(50) + .milliseconds(150))
        _ = health.recordSuccess()
        #expect(health.backgroundAttemptAt == nil)
    }

    @Test("Redis back at any moment is found within the longest back-off, attempts driven by the clock alone")
    func recoveryWithinTheLongestBackoff() {
        for downFor in [Duration.milliseconds(30), .milliseconds(700), .seconds(9), .seconds(37), .seconds(600)] {
            var health = RedisHealth(initialBackoff: .milliseconds(100), maximumBackoff: .seconds(10))
            let back = start + downFor
            var now = start
            let jitters = [0.0, 0.999, 0.3, 0.7]
            _ = health.recordFailure(at: now, jitter: 0.5)
            var attempts = 0
            while let due = health.backgroundAttemptAt {
                now = due
                attempts += 1
                if now >= back {
                    #expect(health.recordSuccess() == .recovered)
                } else {
                    _ = health.recordFailure(at: now, jitter: jitters[attempts % jitters.count])
                }
            }
            #expect(health.isUp)
            #expect(now - back <= .seconds(10), "down for \(downFor): found \(now - back) after it came back")
            // Past the doublings, one attempt per half to whole longest back-off.
            #expect(attempts <= Int(downFor / .seconds(5)) + 10)
        }
    }
}
