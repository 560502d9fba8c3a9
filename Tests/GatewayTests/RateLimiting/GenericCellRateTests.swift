import Testing

@testable import Gateway

/// The GCRA arithmetic with a clock of plain numbers (microseconds).
@Suite struct GenericCellRateTests {
    /// Decides on one request at `now` and keeps the state, as a store does.
    struct Caller {
        let rate: GenericCellRate
        var stored: Int64?

        mutating func request(at now: Int64) -> RateLimitDecision {
            let decision = rate.decide(stored: stored, now: now)
            if decision.isAdmitted { stored = decision.stored }
            return decision
        }
    }

    @Test func theIntervalIsThePeriodOverTheCountRoundedUp() {
        #expect(GenericCellRate(RateLimitPolicy(20, per: .second)).interval == 50_000)
        #expect(GenericCellRate(RateLimitPolicy(3, per: .second)).interval == 333_334)
        #expect(GenericCellRate(RateLimitPolicy(600, per: .minute)).interval == 100_000)
        #expect(GenericCellRate(RateLimitPolicy(10, per: .hour, burst: 4)).capacity == 4 * 360_000_000)
    }

    @Test func aBurstThenTheSteadyRate() {
        var caller = Caller(rate: GenericCellRate(RateLimitPolicy(10, per: .second, burst: 3)))
        let start: Int64 = 5_000_000
        // The whole burst at once, counting down.
        #expect(caller.request(at: start) == RateLimitDecision(isAdmitted: true, stored: start + 100_000, remaining: 2, wait: 100_000))
        #expect(caller.request(at: start).remaining == 1)
        #expect(caller.request(at: start).remaining == 0)
        let refused = caller.request(at: start)
        #expect(!refused.isAdmitted)
        #expect(refused.remaining == 0)
        #expect(refused.wait == 100_000)
        #expect(refused.stored == start + 300_000, "a refusal changes nothing")
        // One interval later exactly one more fits.
        #expect(caller.request(at: start + 99_999).wait == 1)
        #expect(caller.request(at: start + 100_000).isAdmitted)
        #expect(!caller.request(at: start + 100_000).isAdmitted)
        // At the steady rate every request fits, with nothing to spare.
        for step in Int64(2)...50 {
            let decision = caller.request(at: start + step * 100_000)
            #expect(decision.isAdmitted && decision.remaining == 0)
        }
    }

    @Test func quietTimeRefillsUpToTheBurstOnly() {
        var caller = Caller(rate: GenericCellRate(RateLimitPolicy(10, per: .second, burst: 3)))
        for _ in 0..<3 { _ = caller.request(at: 0) }
        // 150 ms later one and a half intervals came back: one request and no more.
        let after = caller.request(at: 150_000)
        #expect(after.isAdmitted && after.remaining == 0)
        #expect(after.wait == 50_000, "the half interval left until the next one")
        // An hour of quiet is worth the burst, not more.
        let rested = caller.request(at: 3_600_000_000)
        #expect(rested.remaining == 2)
        #expect(caller.request(at: 3_600_000_000).remaining == 1)
        #expect(caller.request(at: 3_600_000_000).remaining == 0)
        #expect(!caller.request(at: 3_600_000_000).isAdmitted)
    }

    @Test func retryAfterIsRoundedUpToWholeSeconds() {
        var caller = Caller(rate: GenericCellRate(RateLimitPolicy(1, per: .minute, burst: 1)))
        #expect(caller.request(at: 0).isAdmitted)
        #expect(caller.request(at: 0).waitSeconds == 60)
        #expect(caller.request(at: 500_000).waitSeconds == 60, "59.5 s is 60")
        #expect(caller.request(at: 59_000_001).waitSeconds == 1)
        #expect(caller.request(at: 59_999_999).waitSeconds == 1, "never 0 while refused")
        #expect(caller.request(at: 60_000_000).isAdmitted)
        #expect(RateLimitDecision(isAdmitted: false, stored: 0, remaining: 0, wait: 2_000_000).waitSeconds == 2)
        #expect(RateLimitDecision(isAdmitted: false, stored: 0, remaining: 0, wait: 2_000_001).waitSeconds == 3)
    }

    @Test func aStateInThePastIsAFreshCaller() {
        let rate = GenericCellRate(RateLimitPolicy(5, per: .second))
        #expect(rate.decide(stored: 1_000, now: 9_000_000) == rate.decide(stored: nil, now: 9_000_000))
    }

    @Test func policiesAreReadAndWritten() throws {
        #expect(try RateLimitPolicy(parsing: "20/s") == RateLimitPolicy(20, per: .second, burst: 20))
        #expect(try RateLimitPolicy(parsing: "600/min") == RateLimitPolicy(600, per: .minute))
        #expect(try RateLimitPolicy(parsing: "1000/h  burst 50") == RateLimitPolicy(1000, per: .hour, burst: 50))
        #expect(RateLimitPolicy(20, per: .second, burst: 40).description == "20/s burst 40")
        #expect(RateLimitPolicy(20, per: .minute).description == "20/min")
        for bad in ["", "20", "20/", "/s", "0/s", "-1/s", "20/d", "20/s burst", "20/s burst 0", "20/s bursts 4", "1000001/s", "2e3/s", " 20/s x"] {
            #expect(throws: RateLimitSyntaxError.self, "\(bad)") { try RateLimitPolicy(parsing: bad) }
        }
        #expect(try RateLimit(parsing: "off") == .off)
        #expect(try RateLimit(parsing: "default") == .default)
        #expect(try RateLimit(parsing: "5/s") == .limit(RateLimitPolicy(5, per: .second)))
    }

    @Test func theFieldsOfTheDraft() {
        var headers = HTTPHeaders()
        let policy = RateLimitFields.policyItem(RateLimitPolicy(20, per: .second, burst: 40), named: .gatewayDefault)
        RateLimitFields(name: .gatewayDefault, policy: policy, remaining: 7, reset: 1).add(to: &headers)
        #expect(headers["RateLimit-Policy"] == #""default";q=20;w=1"#)
        #expect(headers["RateLimit"] == #""default";r=7;t=1"#)
        var own = HTTPHeaders()
        let routePolicy = RateLimitFields.policyItem(RateLimitPolicy(5, per: .minute), named: .route)
        RateLimitFields(name: .route, policy: routePolicy, remaining: 4, reset: 12).add(to: &own)
        #expect(own["RateLimit-Policy"] == #""route";q=5;w=60"#)
        #expect(own["RateLimit"] == #""route";r=4;t=12"#)
    }
}
