/// A first-come, first-served line of waiters, any of which may leave it early (cancelled or
/// timed out) by the id it joined under: the connection pool's callers waiting for a connection.
///
/// Taking the first waiter is O(1), amortised: the front moves along the storage, which is
/// compacted once most of it lies behind. Leaving early is a scan, as it is rare.
public struct WaiterQueue<ID: Equatable, Waiter> {
    private var entries: [(id: ID, waiter: Waiter)] = []
    /// Entries before it have been taken.
    private var head = 0

    public init() {}

    /// The waiters in the line.
    public var count: Int { entries.count - head }

    /// The waiters, first come first.
    public var waiters: some Sequence<Waiter> { entries[head...].lazy.map(\.waiter) }

    /// Puts `waiter` at the end of the line, under `id`, which no other waiter in it has.
    public mutating func append(_ waiter: Waiter, id: ID) {
        entries.append((id, waiter))
    }

    /// Takes the waiter that came first, or nil when none waits.
    public mutating func popFirst() -> Waiter? {
        guard head < entries.count else { return nil }
        let first = entries[head].waiter
        head += 1
        compactIfMostlyTaken()
        return first
    }

    /// Takes out the waiter that joined under `id`; nil when it is not in the line (it was
    /// taken already, or never joined).
    public mutating func remove(id: ID) -> Waiter? {
        guard let index = entries[head...].firstIndex(where: { $0.id == id }) else { return nil }
        return entries.remove(at: index).waiter
    }

    /// Takes out every waiter that `shouldLeave` picks, in the order they came.
    public mutating func removeAll(where shouldLeave: (Waiter) -> Bool) -> [Waiter] {
        let leaving = entries[head...].filter { shouldLeave($0.waiter) }.map(\.waiter)
        guard !leaving.isEmpty else { return [] }
        entries.removeSubrange(..<head)
        head = 0
        entries.removeAll { shouldLeave($0.waiter) }
        return leaving
    }

    /// Drops the taken entries once they are most of the storage, so it does not grow for good.
    private mutating func compactIfMostlyTaken() {
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 32 && head * 2 > entries.count {
            entries.removeSubrange(..<head)
            head = 0
        }
    }
}

extension WaiterQueue: Sendable where ID: Sendable, Waiter: Sendable {}
