/// The state of a bearer token that the upstream may rotate, and the judgement of a 401: the pure
/// part of `BearerToken`.
///
/// An upstream that hands out a new token in one answer and drops the old one at once answers 401
/// to every request the old token is still on. Such a 401 is worth one resend with the new token,
/// but the answer carrying it may still be on its way, read after the 401. So a 401 to the current
/// token is judged only once every request sent before it has been answered (or given up): if one
/// of those brought a new token, the request is resent with it; if none did, the 401 stands. Only
/// requests sent before the 401 arrived are waited for, so a broken credential under steady load
/// still fails as fast as the requests already out are answered.
///
/// Sends are counted per epoch, which a 401 that waits closes: later sends go into the next
/// epoch and are not waited for. Epochs start at 1 (0 marks a request not counted) and wrap
/// after 2³² − 1 waits, past which one wait may end early or at its deadline. `Waiter` is what wakes a waiting caller (a continuation); tests
/// use plain values.
struct TokenRotation<Waiter> {
    /// The whole `Authorization` value, built once per token rather than once per request.
    private(set) var authorization: String
    private var epoch: UInt32 = 1
    /// Requests out per epoch, oldest first; a few entries at most.
    private var inFlight: [(epoch: UInt32, count: Int)] = []
    private var waits: [Wait] = []
    private var nextWaitID = 0

    private struct Wait {
        let id: Int
        /// The waiting request's token and the last epoch it waits for.
        let sentWith: String
        let epoch: UInt32
        var waiter: Waiter?
        var isReleased = false
    }

    /// How an answer is judged.
    enum Judgement: Equatable {
        case accept
        case resend
        /// Park under this id (`park`) until `released` says, then ask `judgement(afterWait:sentWith:)`.
        case wait(id: Int)
    }

    init(authorization: String) {
        self.authorization = authorization
    }

    /// Counts a request going out with the current token; returns the token and the request's epoch.
    mutating func send() -> (authorization: String, epoch: UInt32) {
        if let last = inFlight.indices.last, inFlight[last].epoch == epoch {
            inFlight[last].count += 1
        } else {
            inFlight.append((epoch, 1))
        }
        return (authorization, epoch)
    }

    /// The request of `epoch`, sent with `sentWith`, was answered: takes a `refreshed` token, and
    /// judges a 401 (`unauthorized`). Returns the judgement and the waiters to wake.
    mutating func answered(
        sentWith: String, epoch: UInt32, refreshed: String?, unauthorized: Bool
    ) -> (judgement: Judgement, wake: [Waiter]) {
        finish(epoch)
        let wake = refreshed.map { refresh(to: $0) } ?? released()
        guard unauthorized, refreshed == nil else { return (.accept, wake) }
        if authorization != sentWith { return (.resend, wake) }
        guard inFlight.contains(where: { $0.epoch <= self.epoch }) else { return (.accept, wake) }
        nextWaitID += 1
        waits.append(Wait(id: nextWaitID, sentWith: sentWith, epoch: self.epoch))
        self.epoch = self.epoch == .max ? 1 : self.epoch + 1
        return (.wait(id: nextWaitID), wake)
    }

    /// Takes `authorization` as the current one (a refreshed token from an answer that is not
    /// counted); returns the waiters to wake.
    mutating func refresh(to authorization: String) -> [Waiter] {
        self.authorization = authorization
        return released()
    }

    /// The request of `epoch` ended without an answer (an error, a timeout, cancellation).
    mutating func abandoned(epoch: UInt32) -> [Waiter] {
        finish(epoch)
        return released()
    }

    /// Parks `waiter` for wait `id`; false when it was released already, so the caller goes on at once.
    mutating func park(_ waiter: Waiter, id: Int) -> Bool {
        guard let index = waits.firstIndex(where: { $0.id == id }), !waits[index].isReleased else { return false }
        waits[index].waiter = waiter
        return true
    }

    /// Ends wait `id` early (its deadline passed, its task was cancelled); returns its waiter to wake.
    mutating func cancel(id: Int) -> Waiter? {
        guard let index = waits.firstIndex(where: { $0.id == id }) else { return nil }
        waits[index].isReleased = true
        defer { waits[index].waiter = nil }
        return waits[index].waiter
    }

    /// The verdict on a 401 to `sentWith` once its wait `id` is over: resend when the token changed.
    mutating func judgement(afterWait id: Int, sentWith: String) -> Judgement {
        waits.removeAll { $0.id == id }
        return authorization != sentWith ? .resend : .accept
    }

    /// 401s waiting for earlier answers.
    var waitingCount: Int { waits.count { !$0.isReleased } }

    private mutating func finish(_ epoch: UInt32) {
        guard let index = inFlight.firstIndex(where: { $0.epoch == epoch }) else { return }
        inFlight[index].count -= 1
        if inFlight[index].count == 0 { inFlight.remove(at: index) }
    }

    /// Marks the waits that may be judged now, and returns the waiters parked on them.
    private mutating func released() -> [Waiter] {
        guard !waits.isEmpty else { return [] }
        var wake: [Waiter] = []
        for index in waits.indices where !waits[index].isReleased {
            let wait = waits[index]
            guard wait.sentWith != authorization || !inFlight.contains(where: { $0.epoch <= wait.epoch }) else { continue }
            waits[index].isReleased = true
            if let waiter = wait.waiter { wake.append(waiter) }
            waits[index].waiter = nil
        }
        return wake
    }
}
