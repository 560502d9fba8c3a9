import CSystem
import Glibc
import Synchronization

/// One thread running edge-triggered epoll for many sockets, and the timer heap for their deadlines.
///
/// Each descriptor is registered once for both directions. A socket tries its system call
/// first and only on `EAGAIN` parks its task here, in a flat per-descriptor table, until the
/// loop sees readiness, the deadline passes, the socket closes or the task is cancelled.
///
/// The loop is also a `TaskExecutor`: tasks created with `Task(executorPreference: loop)` run
/// on the loop thread, so a connection's task resumes after I/O without a thread hop.
public final class EventLoop: TaskExecutor, Sendable {
    /// The process-wide loop for sockets that do not choose one.
    public static let shared: EventLoop = shared(count: 1)[0]

    /// The first `count` loops of a process-wide list, started on first use and kept for the
    /// life of the process.
    public static func shared(count: Int) -> [EventLoop] {
        sharedLoops.withLock { loops in
            while loops.count < max(count, 1) {
                do {
                    loops.append(try EventLoop())
                } catch {
                    fatalError("cannot start an event loop: \(error)")
                }
            }
            return Array(loops.prefix(max(count, 1)))
        }
    }

    private static let sharedLoops = Mutex<[EventLoop]>([])

    /// The loop whose thread is running the caller, or nil off the loops. Code running in a
    /// connection's task uses it to put its upstream sockets on the same loop, so their I/O
    /// resumes the task without a hop between threads.
    public static var current: EventLoop? {
        guard let loop = pthread_getspecific(currentLoopKey) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(loop).takeUnretainedValue()
    }

    /// Thread-specific slot holding each loop thread's loop (unretained: loops live forever).
    private static let currentLoopKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Marks the eventfd's events; descriptors' events carry `generation << 32 | fd`.
    private static let wakeMarker = UInt64.max

    private let epollDescriptor: Int32
    private let wakeDescriptor: Int32
    private let state = Mutex(EventLoopState())
    private let waitTokens = Atomic<UInt64>(0)

    /// Creates a loop and starts its thread.
    public init() throws(SocketError) {
        // Writes use MSG_NOSIGNAL; ignoring SIGPIPE also covers any other write path.
        signal(SIGPIPE, SIG_IGN)
        epollDescriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollDescriptor >= 0 else { throw .failed(call: "epoll_create1", errno: errno) }
        wakeDescriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeDescriptor >= 0 else {
            let error = errno
            close(epollDescriptor)
            throw .failed(call: "eventfd", errno: error)
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLET.rawValue
        event.data.u64 = Self.wakeMarker
        guard epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, wakeDescriptor, &event) == 0 else {
            let error = errno
            close(wakeDescriptor)
            close(epollDescriptor)
            throw .failed(call: "epoll_ctl", errno: error)
        }
        // The thread owns one reference to the loop for as long as it runs, which is forever.
        try DetachedThread.start { self.run() }
    }

    // MARK: Executor

    /// Runs `job` on the loop thread; wakes the loop if it sleeps in `epoll_wait`.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let mustWake = state.withLock { state in
            state.jobs.append(job)
            return state.requestWake()
        }
        if mustWake { wake() }
    }

    // MARK: Registration

    /// Adds `descriptor` to the loop for good (until `deregister`); returns its generation.
    func register(_ descriptor: Int32) throws(SocketError) -> UInt32 {
        let generation = state.withLock { $0.register(descriptor) }
        var event = epoll_event()
        event.events = EventMask.registration
        event.data.u64 = UInt64(generation) << 32 | UInt64(UInt32(bitPattern: descriptor))
        guard epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
            let error = errno
            deregister(descriptor, generation: generation)
            throw .failed(call: "epoll_ctl", errno: error)
        }
        return generation
    }

    /// Forgets `descriptor` and resumes its waiters with `.closed`; call before closing it.
    func deregister(_ descriptor: Int32, generation: UInt32) {
        let waiters = state.withLock { state -> [Waiter] in
            guard state.isCurrent(descriptor, generation) else { return [] }
            let waiters = [state.takeWaiter(descriptor, .read), state.takeWaiter(descriptor, .write)].compactMap { $0 }
            state.slots[Int(descriptor)] = DescriptorSlot(generation: generation)
            return waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: .closed) }
    }

    func isPeerClosed(_ descriptor: Int32, generation: UInt32) -> Bool {
        state.withLock { state in
            !state.isCurrent(descriptor, generation) || state.slots[Int(descriptor)].isPeerClosed
        }
    }

    /// Runs `action` once when the peer hangs up (at once if it already has).
    func whenPeerCloses(_ descriptor: Int32, generation: UInt32, _ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.isCurrent(descriptor, generation) else { return false }
            if state.slots[Int(descriptor)].isPeerClosed { return true }
            state.slots[Int(descriptor)].peerClosedAction = action
            return false
        }
        if runNow { action() }
    }

    // MARK: Waiting

    /// Suspends until `descriptor` may be ready for `direction`, the deadline passes, it is
    /// deregistered or the task is cancelled.
    func wait(
        for direction: IODirection,
        on descriptor: Int32,
        generation: UInt32,
        deadline: ContinuousClock.Instant?
    ) async -> WaitOutcome {
        let token = waitTokens.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let waiter = Waiter(token: token, continuation: continuation, hasDeadline: deadline != nil)
                let (outcome, mustWake) = state.withLock { state in
                    state.install(waiter, on: descriptor, generation: generation, direction: direction, deadline: deadline)
                }
                if let outcome { continuation.resume(returning: outcome) }
                if mustWake { wake() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.takeWaiter(descriptor, direction, token: token) }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    private func wake() {
        eventfd_write(wakeDescriptor, 1)
    }

    // MARK: The loop

    private func run() {
        let capacity: Int32 = 512
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(capacity))
        var jobs: [UnownedJob] = []
        var ready: [UnsafeContinuation<WaitOutcome, Never>] = []
        var expired: [UnsafeContinuation<WaitOutcome, Never>] = []
        var actions: [@Sendable () -> Void] = []
        let executor = asUnownedTaskExecutor()
        pthread_setspecific(Self.currentLoopKey, Unmanaged.passUnretained(self).toOpaque())
        while true {
            state.withLock { swap(&jobs, &$0.jobs) }
            for job in jobs { job.runSynchronously(on: executor) }
            jobs.removeAll(keepingCapacity: true)

            let now = ContinuousClock.now
            let timeout = state.withLock { state -> Int32 in
                state.expireDeadlines(now: now, into: &expired)
                guard state.jobs.isEmpty, expired.isEmpty else { return 0 }
                state.isSleeping = true
                state.sleepsUntil = state.deadlines.earliest?.instant
                return state.sleepsUntil.map { Self.milliseconds(from: now, to: $0) } ?? -1
            }
            for continuation in expired { continuation.resume(returning: .timedOut) }
            expired.removeAll(keepingCapacity: true)

            let count = epoll_wait(epollDescriptor, events, capacity, timeout)
            state.withLock { state in
                state.isSleeping = false
                state.sleepsUntil = nil
                state.isWakeRequested = false
                for index in 0..<Int(max(count, 0)) {
                    let data = events[index].data.u64
                    if data == Self.wakeMarker {
                        var value: eventfd_t = 0
                        eventfd_read(wakeDescriptor, &value)
                        continue
                    }
                    state.deliver(
                        events: events[index].events,
                        descriptor: Int32(bitPattern: UInt32(truncatingIfNeeded: data)),
                        generation: UInt32(truncatingIfNeeded: data >> 32),
                        into: &ready,
                        actions: &actions
                    )
                }
            }
            for continuation in ready { continuation.resume(returning: .ready) }
            ready.removeAll(keepingCapacity: true)
            for action in actions { action() }
            actions.removeAll(keepingCapacity: true)
        }
    }

    /// Whole milliseconds until `deadline`, rounded up so a wait never ends just before it.
    package static func milliseconds(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant) -> Int32 {
        let (seconds, attoseconds) = (deadline - now).components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(milliseconds, 0))
    }
}
