/// The order in which a file endpoint's calls run: a call starts once every call it reads has
/// finished, a call whose input failed is skipped as degraded, an optional call's failure
/// degrades the answer and a required call's failure fails the endpoint.
///
/// It performs no I/O: `FileEndpoint` asks `next()` what to do, plans and sends the calls, and
/// reports how each ended. That keeps the scheduling testable without upstreams.
///
/// Ready calls are handed out in sweeps over the calls in declaration order, repeated while a
/// sweep finds one, so calls start, and degraded parts are listed, in the same order every time.
struct CallSchedule: Sendable {
    /// What the endpoint must do next.
    enum Step: Equatable {
        /// Every call this call reads has answered: plan it, then send it, or report it
        /// `answered` (its plan skips it) or `failed`. It counts as in flight until then.
        case start(Int)
        /// A call this call reads failed, so it cannot run: list it as degraded (it is optional,
        /// as the endpoints file requires of a call reading an optional one).
        case degrade(Int)
        /// Nothing can start before a call in flight ends: send what was started, await one
        /// answer and report it.
        case awaitAnswer
        /// Every call has finished (or can never start): build the answer.
        case respond
    }

    /// What a call's failure means for the endpoint.
    enum FailureOutcome: Equatable {
        /// The call was optional: the answer goes without it, listing it as degraded.
        case degrades
        /// The call was required: the endpoint fails with the call's failure.
        case failsEndpoint
    }

    private enum CallState: Equatable {
        case waiting, inFlight, answered, failed

        var isFinished: Bool { self == .answered || self == .failed }
    }

    /// Per call, the calls it reads.
    private let dependencies: [[Int]]
    private let isOptional: [Bool]
    private var states: [CallState]
    private var inFlight = 0
    /// Where the current sweep goes on, and whether it has found a call yet.
    private var sweepIndex = 0
    private var sweepFoundACall = false

    /// A schedule for calls that read `dependencies` (per call, the indices of the calls it
    /// reads) and are optional where `isOptional` says so, none started yet.
    init(dependencies: [[Int]], isOptional: [Bool]) {
        precondition(dependencies.count == isOptional.count)
        self.dependencies = dependencies
        self.isOptional = isOptional
        states = Array(repeating: .waiting, count: dependencies.count)
    }

    /// The next thing to do; after `.start(call)` the endpoint reports how the call ended
    /// before asking again.
    mutating func next() -> Step {
        while true {
            while sweepIndex < states.count {
                let index = sweepIndex
                sweepIndex += 1
                guard states[index] == .waiting, dependencies[index].allSatisfy({ states[$0].isFinished }) else { continue }
                sweepFoundACall = true
                if dependencies[index].contains(where: { states[$0] == .failed }) {
                    states[index] = .failed
                    return .degrade(index)
                }
                states[index] = .inFlight
                inFlight += 1
                return .start(index)
            }
            sweepIndex = 0
            // Skipping or failing a call may have made calls earlier in the order ready too.
            guard sweepFoundACall else { break }
            sweepFoundACall = false
        }
        return inFlight > 0 ? .awaitAnswer : .respond
    }

    /// Records that call `index`, in flight, answered (or its plan skipped it).
    mutating func answered(_ index: Int) {
        finish(index, as: .answered)
    }

    /// Records that call `index`, in flight, failed, and says what that means for the endpoint.
    mutating func failed(_ index: Int) -> FailureOutcome {
        finish(index, as: .failed)
        return isOptional[index] ? .degrades : .failsEndpoint
    }

    private mutating func finish(_ index: Int, as state: CallState) {
        precondition(states[index] == .inFlight, "call \(index) is not in flight")
        states[index] = state
        inFlight -= 1
    }
}
