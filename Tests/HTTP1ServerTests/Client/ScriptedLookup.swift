import Synchronization

@testable import NetworkRuntime

/// A name lookup and clock for `NameResolver` tests: counts lookups, answers them at once or
/// when the test says so, and lets the test wait until the resolver has consulted its cache a
/// given number of times (each consultation reads the clock once, under the resolver's lock).
final class ScriptedLookup: Sendable {
    typealias Answer = Result<[SocketAddress], SocketError>

    private struct State {
        var lookups = 0
        var pending: [@Sendable (Answer) -> Void] = []
        /// An answer given before any lookup was held, for the next one.
        var early: Answer?
        var offset: Duration = .zero
        var clockReads = 0
        var readsAwaited: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Mutex(State())
    private let start = ContinuousClock.now
    /// The answer given at once, or nil to hold every lookup until `answerPending(with:)`.
    private let immediate: (@Sendable () -> Answer)?

    init(immediate: (@Sendable () -> Answer)? = nil) {
        self.immediate = immediate
    }

    var lookups: Int { state.withLock { $0.lookups } }

    func resolver(refreshInterval: Duration = .seconds(30)) -> NameResolver {
        NameResolver(refreshInterval: refreshInterval, now: { self.now() }, lookup: { _, _, answer in self.lookUp(answer) })
    }

    func advanceClock(by duration: Duration) {
        state.withLock { $0.offset += duration }
    }

    /// Returns once the resolver has read the clock `count` times in all.
    func waitForClockReads(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let isDone = state.withLock { state -> Bool in
                guard state.clockReads < count else { return true }
                state.readsAwaited = (count, continuation)
                return false
            }
            if isDone { continuation.resume() }
        }
    }

    /// Answers every lookup held so far or, when none is held yet, the next one: the resolver
    /// reads the clock before it starts its lookup, so `waitForClockReads` may return between the two.
    func answerPending(with answer: Answer) {
        let pending = state.withLock { state in
            defer { state.pending = [] }
            if state.pending.isEmpty { state.early = answer }
            return state.pending
        }
        for reply in pending { reply(answer) }
    }

    private func now() -> ContinuousClock.Instant {
        let (instant, awaited) = state.withLock { state -> (ContinuousClock.Instant, CheckedContinuation<Void, Never>?) in
            state.clockReads += 1
            var awaited: CheckedContinuation<Void, Never>?
            if let readsAwaited = state.readsAwaited, state.clockReads >= readsAwaited.count {
                awaited = readsAwaited.continuation
                state.readsAwaited = nil
            }
            return (start + state.offset, awaited)
        }
        awaited?.resume()
        return instant
    }

    private func lookUp(_ answer: @escaping @Sendable (Answer) -> Void) {
        let early = state.withLock { state -> Answer? in
            state.lookups += 1
            defer { state.early = nil }
            if immediate == nil && state.early == nil { state.pending.append(answer) }
            return state.early
        }
        if let early {
            answer(early)
        } else if let immediate {
            answer(immediate())
        }
    }
}
