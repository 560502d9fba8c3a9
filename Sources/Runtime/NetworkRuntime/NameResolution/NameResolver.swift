import CSystem
import Glibc
import Synchronization

/// Host names to socket addresses for `HTTPClient`, looked up off the event loops and cached.
///
/// A connect never runs `getaddrinfo` on its own thread. IP literals need no lookup. The first
/// connect to a name starts a lookup on a thread of its own and suspends until the answer
/// arrives, its deadline passes or its task is cancelled; concurrent connects to the same name
/// wait for that same lookup. Every address of the answer is kept. Once the answer is older than
/// the refresh interval, the next connect starts a new lookup and meanwhile uses the kept one,
/// so a changed record reaches new connections within one interval plus one lookup. A failed
/// refresh keeps the previous answer for another interval; a failed first lookup is not kept, so
/// the next connect tries again.
package final class NameResolver: Sendable {
    /// Starts looking up `host` and calls `answer` once, from any thread, with every address or
    /// the failure.
    typealias Lookup = @Sendable (
        _ host: String, _ port: Int, _ answer: @escaping @Sendable (Result<[SocketAddress], SocketError>) -> Void
    ) -> Void

    /// How long an answer is used before the next connect refreshes it.
    static let defaultRefreshInterval: Duration = .seconds(30)

    private struct Name: Hashable {
        var host: String
        var port: Int
    }

    private struct Entry {
        var addresses: [SocketAddress] = []
        /// When `addresses` arrived; nil until the first lookup succeeds.
        var resolvedAt: ContinuousClock.Instant?
        var isLookingUp = false
        /// Connects waiting for the lookup under way, which have no answer to use meanwhile.
        var waiters: [Signal] = []
    }

    /// What a connect does after looking at the cache.
    private enum Step {
        case use([SocketAddress])
        case wait(for: Signal)
    }

    private let entries = Mutex<[Name: Entry]>([:])
    private let refreshInterval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lookup: Lookup

    /// A resolver calling `getaddrinfo` on a new detached thread per lookup: lookups are rare
    /// (one per name per refresh interval), so a pool of threads would mostly sleep.
    package convenience init() {
        self.init(refreshInterval: Self.defaultRefreshInterval, now: { .now }, lookup: Self.systemLookup)
    }

    /// A resolver with its own clock and lookup, for tests.
    init(refreshInterval: Duration, now: @escaping @Sendable () -> ContinuousClock.Instant, lookup: @escaping Lookup) {
        self.refreshInterval = refreshInterval
        self.now = now
        self.lookup = lookup
    }

    /// Every address of `host`, best first; a literal's own address without any lookup.
    ///
    /// - Parameter loop: where a connect that must wait for a lookup parks.
    /// - Throws: `.unresolvable` when the lookup fails, `.timedOut` at `deadline`, `.cancelled`.
    package func addresses(of host: String, port: Int, on loop: EventLoop, deadline: ContinuousClock.Instant) async throws(SocketError) -> [SocketAddress] {
        if let literal = SocketAddress.literal(host, port: port) { return [literal] }
        let name = Name(host: host, port: port)
        let (step, startsLookup) = try entries.withLock { entries throws(SocketError) -> (Step, Bool) in
            let now = now()
            var entry = entries[name] ?? Entry()
            if let resolvedAt = entry.resolvedAt {
                guard now - resolvedAt >= refreshInterval, !entry.isLookingUp else { return (.use(entry.addresses), false) }
                entry.isLookingUp = true
                entries[name] = entry
                return (.use(entry.addresses), true)
            }
            let signal = try Signal(on: loop)
            entry.waiters.append(signal)
            let startsLookup = !entry.isLookingUp
            entry.isLookingUp = true
            entries[name] = entry
            return (.wait(for: signal), startsLookup)
        }
        if startsLookup {
            lookup(host, port) { answer in self.finish(name, with: answer) }
        }
        switch step {
        case .use(let addresses): return addresses
        case .wait(let signal):
            do {
                return try await signal.wait(deadline: deadline)
            } catch {
                // Its eventfd goes now, not when a lookup that may hang for seconds ends.
                entries.withLock { $0[name]?.waiters.removeAll { $0 === signal } }
                throw error
            }
        }
    }

    /// How many connects wait for the lookup of `host` under way, for tests.
    func waitingConnects(to host: String, port: Int) -> Int {
        entries.withLock { $0[Name(host: host, port: port)]?.waiters.count ?? 0 }
    }

    private func finish(_ name: Name, with answer: Result<[SocketAddress], SocketError>) {
        let waiters = entries.withLock { entries -> [Signal] in
            guard var entry = entries[name] else { return [] }
            let waiters = entry.waiters
            entry.waiters = []
            entry.isLookingUp = false
            switch answer {
            case .success(let addresses):
                entry.addresses = addresses
                entry.resolvedAt = now()
            case .failure where entry.resolvedAt != nil:
                entry.resolvedAt = now()
            case .failure:
                entries[name] = nil
                return waiters
            }
            entries[name] = entry
            return waiters
        }
        for waiter in waiters { waiter.deliver(answer) }
    }

    private static let systemLookup: Lookup = { host, port, answer in
        do throws(SocketError) {
            try DetachedThread.start {
                answer(Result { () throws(SocketError) in try SocketAddress.lookUp(host, port: port) })
            }
        } catch {
            answer(.failure(error))
        }
    }

    /// Wakes one connect waiting for a lookup: an eventfd registered on the connect's loop, so
    /// the wait ends through the loop's own readiness, deadline and cancellation handling.
    private final class Signal: Sendable {
        private let descriptor: Int32
        private let generation: UInt32
        private let loop: EventLoop
        private let answer = Mutex<Result<[SocketAddress], SocketError>?>(nil)

        init(on loop: EventLoop) throws(SocketError) {
            descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard descriptor >= 0 else { throw .failed(call: "eventfd", errno: errno) }
            do {
                generation = try loop.register(descriptor)
            } catch {
                Glibc.close(descriptor)
                throw error
            }
            self.loop = loop
        }

        // The lookup holds the signal until it delivers, so the descriptor it writes stays open
        // even when the waiting connect has given up.
        deinit {
            loop.deregister(descriptor, generation: generation)
            Glibc.close(descriptor)
        }

        func deliver(_ answer: Result<[SocketAddress], SocketError>) {
            self.answer.withLock { $0 = answer }
            eventfd_write(descriptor, 1)
        }

        func wait(deadline: ContinuousClock.Instant) async throws(SocketError) -> [SocketAddress] {
            switch await loop.wait(for: .read, on: descriptor, generation: generation, deadline: deadline) {
            case .ready:
                // Readable only after `deliver` stored the answer.
                guard let answer = answer.withLock({ $0 }) else { throw .closed }
                return try answer.get()
            case .timedOut: throw .timedOut
            case .cancelled: throw .cancelled
            case .closed: throw .closed
            }
        }
    }
}
