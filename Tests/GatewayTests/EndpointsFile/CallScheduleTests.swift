import Testing

@testable import Gateway

/// `CallSchedule` driven step by step, without upstreams: which calls start when, what a
/// failure means, and when the answer can be built.
@Suite struct CallScheduleTests {
    @Test func independentCallsStartTogetherInDeclarationOrder() {
        var schedule = CallSchedule(dependencies: [[], [], []], isOptional: [false, false, false])
        #expect(schedule.next() == .start(0))
        #expect(schedule.next() == .start(1))
        #expect(schedule.next() == .start(2))
        #expect(schedule.next() == .awaitAnswer)
        schedule.answered(1)
        #expect(schedule.next() == .awaitAnswer)
        schedule.answered(0)
        schedule.answered(2)
        #expect(schedule.next() == .respond)
    }

    @Test func aCallStartsOnlyOnceEveryCallItReadsHasAnswered() {
        // 2 reads 0 and 1; 1 reads 0.
        var schedule = CallSchedule(dependencies: [[], [0], [0, 1]], isOptional: [false, false, false])
        #expect(schedule.next() == .start(0))
        #expect(schedule.next() == .awaitAnswer)
        schedule.answered(0)
        #expect(schedule.next() == .start(1))
        #expect(schedule.next() == .awaitAnswer)
        schedule.answered(1)
        #expect(schedule.next() == .start(2))
        schedule.answered(2)
        #expect(schedule.next() == .respond)
    }

    @Test func aCallSkippedAtOnceReleasesEarlierCallsInTheSameRound() {
        // 0 reads 1, declared before it: a second sweep finds it once 1's plan skipped it.
        var schedule = CallSchedule(dependencies: [[1], []], isOptional: [false, false])
        #expect(schedule.next() == .start(1))
        schedule.answered(1)
        #expect(schedule.next() == .start(0))
        #expect(schedule.next() == .awaitAnswer)
        schedule.answered(0)
        #expect(schedule.next() == .respond)
    }

    @Test func anOptionalFailureDegradesAndSkipsTheCallsReadingIt() {
        // 1 and 2 read optional 0; 3 reads 2; 4 is independent and required.
        var schedule = CallSchedule(dependencies: [[], [0], [0], [2], []], isOptional: [true, true, true, true, false])
        #expect(schedule.next() == .start(0))
        #expect(schedule.next() == .start(4))
        #expect(schedule.next() == .awaitAnswer)
        #expect(schedule.failed(0) == .degrades)
        #expect(schedule.next() == .degrade(1))
        #expect(schedule.next() == .degrade(2))
        #expect(schedule.next() == .degrade(3))
        #expect(schedule.next() == .awaitAnswer)
        schedule.answered(4)
        #expect(schedule.next() == .respond)
    }

    @Test func aRequiredFailureFailsTheEndpoint() {
        var schedule = CallSchedule(dependencies: [[], [0]], isOptional: [false, true])
        #expect(schedule.next() == .start(0))
        #expect(schedule.failed(0) == .failsEndpoint)
    }

    @Test func noCallsRespondAtOnce() {
        var schedule = CallSchedule(dependencies: [], isOptional: [])
        #expect(schedule.next() == .respond)
    }

    @Test func eachRequestRunsItsOwnCopy() {
        let compiled = CallSchedule(dependencies: [[]], isOptional: [false])
        var first = compiled
        #expect(first.next() == .start(0))
        first.answered(0)
        #expect(first.next() == .respond)
        var second = compiled
        #expect(second.next() == .start(0))
    }
}
