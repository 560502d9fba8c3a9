import Testing
@testable import UpstreamKit

/// When a 401 is judged against a rotating token, without a network: waiters are plain numbers.
@Suite struct TokenRotationTests {
    typealias Rotation = TokenRotation<Int>

    static func answer(
        _ rotation: inout Rotation, _ sent: (authorization: String, epoch: UInt32), refreshed: String? = nil, unauthorized: Bool = false
    ) -> (judgement: Rotation.Judgement, wake: [Int]) {
        rotation.answered(sentWith: sent.authorization, epoch: sent.epoch, refreshed: refreshed, unauthorized: unauthorized)
    }

    /// Expects `value` to be `expected`; `value` may come from a mutating call, which `#expect` cannot hold.
    static func check<Value: Equatable>(_ value: Value, _ expected: Value, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(value == expected, sourceLocation: sourceLocation)
    }

    /// Answers `sent` with a 401 and returns the id of the wait that starts; records an issue when none does.
    static func wait(_ rotation: inout Rotation, after401To sent: (authorization: String, epoch: UInt32)) -> Int {
        let judgement = answer(&rotation, sent, unauthorized: true).judgement
        guard case .wait(let id) = judgement else {
            Issue.record("expected to wait, got \(judgement)")
            return -1
        }
        return id
    }

    @Test func a401ToTheCurrentTokenWithNothingElseOutStands() {
        var rotation = Rotation(authorization: "Bearer a")
        let sent = rotation.send()
        Self.check(Self.answer(&rotation, sent, unauthorized: true).judgement, .accept)
    }

    @Test func a401ToATokenAlreadyReplacedIsResentAtOnce() {
        var rotation = Rotation(authorization: "Bearer a")
        let first = rotation.send(), second = rotation.send()
        Self.check(Self.answer(&rotation, first, refreshed: "Bearer b").judgement, .accept)
        Self.check(Self.answer(&rotation, second, unauthorized: true).judgement, .resend)
        #expect(rotation.send().authorization == "Bearer b")
    }

    @Test func a401ReadBeforeTheRotatingAnswerWaitsForItAndIsResent() {
        var rotation = Rotation(authorization: "Bearer a")
        let rotating = rotation.send(), refused = rotation.send()
        let id = Self.wait(&rotation, after401To: refused)
        Self.check(rotation.park(7, id: id), true)
        Self.check(Self.answer(&rotation, rotating, refreshed: "Bearer b").wake, [7])
        Self.check(rotation.judgement(afterWait: id, sentWith: refused.authorization), .resend)
    }

    @Test func theWaitEndsWithoutAResendWhenTheEarlierAnswersBringNoToken() {
        var rotation = Rotation(authorization: "Bearer a")
        let answered = rotation.send(), failed = rotation.send(), refused = rotation.send()
        let id = Self.wait(&rotation, after401To: refused)
        Self.check(rotation.park(7, id: id), true)
        Self.check(Self.answer(&rotation, answered).wake, [])
        Self.check(rotation.abandoned(epoch: failed.epoch), [7])
        Self.check(rotation.judgement(afterWait: id, sentWith: refused.authorization), .accept)
    }

    @Test func requestsSentAfterThe401AreNotWaitedFor() {
        var rotation = Rotation(authorization: "Bearer a")
        let earlier = rotation.send(), refused = rotation.send()
        let id = Self.wait(&rotation, after401To: refused)
        let later = rotation.send()
        #expect(later.epoch > earlier.epoch)
        Self.check(Self.answer(&rotation, earlier).wake, [])
        Self.check(rotation.park(7, id: id), false)
        Self.check(rotation.judgement(afterWait: id, sentWith: refused.authorization), .accept)
    }

    @Test func aCancelledWaitHandsBackItsWaiterOnce() {
        var rotation = Rotation(authorization: "Bearer a")
        let earlier = rotation.send(), refused = rotation.send()
        let id = Self.wait(&rotation, after401To: refused)
        Self.check(rotation.park(7, id: id), true)
        Self.check(rotation.cancel(id: id), 7)
        Self.check(Self.answer(&rotation, earlier, refreshed: "Bearer b").wake, [])
        Self.check(rotation.judgement(afterWait: id, sentWith: refused.authorization), .resend)
    }
}
