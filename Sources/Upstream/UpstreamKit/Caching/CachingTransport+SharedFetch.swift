import Synchronization

extension CachingTransport {
    /// One upstream request that several callers wait for, each within its own deadline and
    /// cancellation; the result reaches every caller still waiting, once.
    final class SharedFetch: Sendable {
        private let state = Mutex(State())

        private struct State {
            var result: Result<Exchange, UpstreamError>?
            var waiters: [Int: CheckedContinuation<Result<Exchange, UpstreamError>, Never>] = [:]
            /// Waiters cancelled before they could register, so that they never do.
            var cancelled: Set<Int> = []
            var nextID = 0
        }

        var waiterCount: Int { state.withLock { $0.waiters.count } }

        /// Hands `result` to every waiter, and to any that comes later.
        func complete(_ result: Result<Exchange, UpstreamError>) {
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters = [:] }
                return state.waiters
            }
            for waiter in waiters.values { waiter.resume(returning: result) }
        }

        /// The result, or `.timedOut` at `deadline`, or `.cancelled` as soon as the calling task is.
        func wait(until deadline: ContinuousClock.Instant?) async -> Result<Exchange, UpstreamError> {
            guard let deadline else { return await wait() }
            return await withTaskGroup(of: Result<Exchange, UpstreamError>.self) { group in
                group.addTask { await self.wait() }
                group.addTask {
                    do {
                        try await Task.sleep(until: deadline, clock: .continuous)
                        return .failure(.timedOut)
                    } catch {
                        return .failure(.cancelled)
                    }
                }
                let first = await group.next() ?? .failure(.cancelled)
                group.cancelAll()
                return first
            }
        }

        private func wait() async -> Result<Exchange, UpstreamError> {
            let id = state.withLock { state in
                state.nextID += 1
                return state.nextID
            }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready: Result<Exchange, UpstreamError>? = state.withLock { state in
                        if let result = state.result { return result }
                        if state.cancelled.remove(id) != nil { return .failure(.cancelled) }
                        state.waiters[id] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    guard let waiter = state.waiters.removeValue(forKey: id) else {
                        if state.result == nil { state.cancelled.insert(id) }
                        return nil as CheckedContinuation<Result<Exchange, UpstreamError>, Never>?
                    }
                    return waiter
                }
                waiter?.resume(returning: .failure(.cancelled))
            }
        }
    }
}
