import Synchronization
@testable import UpstreamKit

/// Time that only moves when the code under test sleeps or a test advances it.
final class ManualTime: Sendable {
    private let start = ContinuousClock.now
    private let state = Mutex<(offset: Duration, sleeps: [Duration])>((.zero, []))

    var source: TimeSource {
        TimeSource(
            now: { [self] in start + state.withLock { $0.offset } },
            sleep: { [self] duration throws(UpstreamError) in
                state.withLock { state in
                    state.sleeps.append(duration)
                    state.offset += duration
                }
            }
        )
    }

    func advance(by duration: Duration) {
        state.withLock { $0.offset += duration }
    }

    var sleeps: [Duration] { state.withLock { $0.sleeps } }
}
