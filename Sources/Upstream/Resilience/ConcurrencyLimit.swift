import HTTPBasics
import Synchronization

/// Caps the calls running at once against one upstream.
///
/// Below the cap a call takes a slot under a lock without suspending. At the cap it waits in a FIFO
/// queue; once `maximumWaiting` calls wait, further calls fail at once with `.overloaded` instead of
/// piling up behind an upstream that is not keeping pace. A finishing call hands its slot straight to
/// the oldest waiter. Cancelled waiters leave the queue and throw `.cancelled`.
final class ConcurrencyLimit: Sendable {
    private struct State {
        var running = 0
        var waiters = WaiterQueue<UInt64, CheckedContinuation<Void, any Error>>()
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let maximumRunning: Int
    private let maximumWaiting: Int

    init(maximumRunning: Int, maximumWaiting: Int) {
        self.maximumRunning = max(1, maximumRunning)
        self.maximumWaiting = max(0, maximumWaiting)
    }

    /// Takes a slot, waiting if needed; every successful `acquire` must be followed by one `release`.
    ///
    /// Always inlined, so that a free slot is taken synchronously in the caller's frame: only a
    /// full cap costs an async call (`waitForSlot`).
    @inline(__always)
    func acquire() async throws(UpstreamError) {
        guard try !tryAcquire() else { return }
        try await waitForSlot()
    }

    /// Takes a slot if one is free, without suspending: the common case costs no async frame.
    /// Returns false when the caller must wait for one with `waitForSlot()`.
    ///
    /// - Throws: `.overloaded` when every slot is taken and the queue is full.
    func tryAcquire() throws(UpstreamError) -> Bool {
        enum Admission { case admitted, overloaded, mustWait }
        let admission = state.withLock { state -> Admission in
            if state.running < maximumRunning {
                state.running += 1
                return .admitted
            }
            return state.waiters.count < maximumWaiting ? .mustWait : .overloaded
        }
        switch admission {
        case .admitted: return true
        case .overloaded: throw .overloaded
        case .mustWait: return false
        }
    }

    /// Calls waiting for a slot right now.
    var waitingCount: Int {
        state.withLock { $0.waiters.count }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if let waiter = state.waiters.popFirst() { return waiter }
            state.running -= 1
            return nil
        }
        next?.resume()
    }

    /// Waits for a slot after `tryAcquire` found none; takes one at once if it was freed since.
    func waitForSlot() async throws(UpstreamError) {
        enum Entry { case queued, admitted, overloaded, cancelled }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    // Checked again under the lock: a slot freed since `tryAcquire` found no waiter
                    // to hand itself to, so it must be taken here rather than waited for.
                    let entry = state.withLock { state -> Entry in
                        if Task.isCancelled { return .cancelled }
                        if state.running < maximumRunning {
                            state.running += 1
                            return .admitted
                        }
                        guard state.waiters.count < maximumWaiting else { return .overloaded }
                        state.waiters.append(continuation, id: id)
                        return .queued
                    }
                    switch entry {
                    case .queued: break
                    case .admitted: continuation.resume()
                    case .overloaded: continuation.resume(throwing: UpstreamError.overloaded)
                    case .cancelled: continuation.resume(throwing: CancellationError())
                    }
                }
            } onCancel: {
                // Only a waiter still queued is resumed here; one already handed a slot keeps it.
                state.withLock { $0.waiters.remove(id: id) }?.resume(throwing: CancellationError())
            }
        } catch let error as UpstreamError {
            throw error
        } catch {
            throw .cancelled
        }
    }
}
