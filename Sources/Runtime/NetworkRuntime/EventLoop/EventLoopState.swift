/// Everything a loop shares between its thread and the tasks that wait on it; guarded by one `Mutex`.
struct EventLoopState {
    var slots: [DescriptorSlot] = []
    var deadlines = DeadlineHeap()
    /// Waiters in `slots` that have an entry in `deadlines`; the rest of the heap is stale.
    var liveDeadlineCount = 0
    /// Jobs of tasks that prefer this loop as their executor.
    var jobs: [UnownedJob] = []
    /// The loop is in (or about to enter) `epoll_wait` and needs the eventfd to notice new work.
    var isSleeping = false
    /// When the sleeping loop wakes on its own; nil means never.
    var sleepsUntil: ContinuousClock.Instant?
    /// A wake-up write is already on its way.
    var isWakeRequested = false

    /// Asks the sleeping loop to wake up, once; returns whether the caller must write the eventfd.
    mutating func requestWake() -> Bool {
        guard isSleeping, !isWakeRequested else { return false }
        isWakeRequested = true
        return true
    }

    mutating func register(_ descriptor: Int32) -> UInt32 {
        let index = Int(descriptor)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(DescriptorSlot(), count: max(index + 1, slots.count * 2, 64) - slots.count))
        }
        let generation = slots[index].generation &+ 1
        slots[index] = DescriptorSlot(generation: generation, isRegistered: true)
        return generation
    }

    func isCurrent(_ descriptor: Int32, _ generation: UInt32) -> Bool {
        let index = Int(descriptor)
        return index >= 0 && index < slots.count && slots[index].isRegistered && slots[index].generation == generation
    }

    /// Takes the waiter for `direction` if it is the wait `token` names (when given).
    mutating func takeWaiter(_ descriptor: Int32, _ direction: IODirection, token: UInt64? = nil) -> Waiter? {
        let index = Int(descriptor)
        guard index >= 0, index < slots.count else { return nil }
        let current = direction == .read ? slots[index].reader : slots[index].writer
        guard let waiter = current, token == nil || waiter.token == token else { return nil }
        _ = slots[index].takeWaiter(direction)
        if waiter.hasDeadline { liveDeadlineCount -= 1 }
        return waiter
    }

    /// Installs a waiter, unless readiness already arrived (`.ready`), the socket is gone
    /// (`.closed`) or the task is cancelled. Returns that outcome, or nil and whether to wake the loop.
    mutating func install(
        _ waiter: Waiter,
        on descriptor: Int32,
        generation: UInt32,
        direction: IODirection,
        deadline: ContinuousClock.Instant?
    ) -> (outcome: WaitOutcome?, wake: Bool) {
        guard isCurrent(descriptor, generation) else { return (.closed, false) }
        let index = Int(descriptor)
        switch direction {
        case .read where slots[index].isReadable:
            slots[index].isReadable = false
            return (.ready, false)
        case .read where slots[index].isPeerClosed:
            // After a hang-up a read never blocks (it returns the rest, then 0 or the error), and
            // the hang-up's one edge may already have been spent waking an earlier wait.
            return (.ready, false)
        case .write where slots[index].isWritable:
            slots[index].isWritable = false
            return (.ready, false)
        default:
            break
        }
        if Task.isCancelled { return (.cancelled, false) }
        switch direction {
        case .read: slots[index].reader = waiter
        case .write: slots[index].writer = waiter
        }
        guard let deadline else { return (nil, false) }
        deadlines.insert(Deadline(instant: deadline, descriptor: descriptor, direction: direction, token: waiter.token))
        liveDeadlineCount += 1
        if let sleepsUntil, sleepsUntil <= deadline { return (nil, false) }
        return (nil, requestWake())
    }

    /// Records readiness from one epoll event, collecting the waiters to resume and the hang-up action to run.
    mutating func deliver(
        events: UInt32,
        descriptor: Int32,
        generation: UInt32,
        into resumptions: inout [UnsafeContinuation<WaitOutcome, Never>],
        actions: inout [@Sendable () -> Void]
    ) {
        guard isCurrent(descriptor, generation) else { return }
        let index = Int(descriptor)
        let hangUp = EventMask.hangUp & events != 0
        if EventMask.readable & events != 0 {
            if let waiter = takeWaiter(descriptor, .read) {
                resumptions.append(waiter.continuation)
            } else {
                slots[index].isReadable = true
            }
        }
        if EventMask.writable & events != 0 {
            if let waiter = takeWaiter(descriptor, .write) {
                resumptions.append(waiter.continuation)
            } else {
                slots[index].isWritable = true
            }
        }
        if hangUp, !slots[index].isPeerClosed {
            slots[index].isPeerClosed = true
            if let action = slots[index].peerClosedAction {
                slots[index].peerClosedAction = nil
                actions.append(action)
            }
        }
    }

    /// Ends the waits whose deadline passed and drops stale heap entries when they outnumber live ones.
    mutating func expireDeadlines(now: ContinuousClock.Instant, into expired: inout [UnsafeContinuation<WaitOutcome, Never>]) {
        while let earliest = deadlines.earliest, earliest.instant <= now {
            _ = deadlines.removeEarliest()
            if let waiter = takeWaiter(earliest.descriptor, earliest.direction, token: earliest.token) {
                expired.append(waiter.continuation)
            }
        }
        if deadlines.count > 64, deadlines.count > 2 * liveDeadlineCount {
            let slots = self.slots
            deadlines.removeAll { !Self.isLive($0, in: slots) }
        }
    }

    private static func isLive(_ deadline: Deadline, in slots: [DescriptorSlot]) -> Bool {
        let index = Int(deadline.descriptor)
        guard index < slots.count else { return false }
        let waiter = deadline.direction == .read ? slots[index].reader : slots[index].writer
        return waiter?.token == deadline.token
    }
}
