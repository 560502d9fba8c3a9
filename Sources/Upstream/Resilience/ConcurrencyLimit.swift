import Synchronization

/// Caps the calls running at once against one upstream.
///
/// Below the cap a call takes a slot under a lock without suspending. At the cap it waits in a FIFO
/// queue; once `maximumWaiting` calls wait, further calls fail at once with `.overloaded` instead of
/// piling up behind an upstream that is not keeping pace. A finishing call hands its slot straight to
/// the oldest waiter. Cancelled waiters leave the queue and throw `.cancelled`.
final class ConcurrencyLimit: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiters: [Waiter] = []
        var head = 0
        var nextID: UInt64 = 0

        var waitingCount: Int { waiters.count - head }

        mutating func popFirst() -> Waiter? {
            guard head < waiters.count else { return nil }
            let waiter = waiters[head]
            head += 1
            if head > 32 && head * 2 > waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
            return waiter
        }

        mutating func remove(id: UInt64) -> Waiter? {
            guard let index = waiters[head...].firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
    }

    private let state = Mutex(State())
    private let maximumRunning: Int
    private let maximumWaiting: Int

    init(maximumRunning: Int, maximumWaiting: Int) {
        self.maximumRunning = max(1, maximumRunning)
        self.maximumWaiting = max(0, maximumWaiting)
    }

    /// Takes a slot, waiting if needed; every successful `acquire` must be followed by one `release`.
    func acquire() async throws(UpstreamError) {
        enum Admission { case admitted, overloaded, wait(UInt64) }
        let admission = state.withLock { state -> Admission in
            if state.running < maximumRunning {
                state.running += 1
                return .admitted
            }
            guard state.waitingCount < maximumWaiting else { return .overloaded }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch admission {
        case .admitted: return
        case .overloaded: throw .overloaded
        case .wait(let id): try await wait(id: id)
        }
    }

    /// Calls waiting for a slot right now.
    var waitingCount: Int {
        state.withLock { $0.waitingCount }
    }

    func release() {
        let next = state.withLock { state -> Waiter? in
            if let waiter = state.popFirst() { return waiter }
            state.running -= 1
            return nil
        }
        next?.continuation.resume()
    }

    private func wait(id: UInt64) async throws(UpstreamError) {
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelledAlready = state.withLock { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return false
                    }
                    if cancelledAlready { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                // Only a waiter still queued is resumed here; one already handed a slot keeps it.
                state.withLock { $0.remove(id: id) }?.continuation.resume(throwing: CancellationError())
            }
        } catch {
            throw .cancelled
        }
    }
}
