/// A binary min-heap of deadlines: the one timer structure behind every timeout on a loop.
///
/// Waits that end before their deadline leave their entry behind (lazy deletion); the owner
/// drops stale entries when they surface and calls `removeAll(where:)` when they pile up.
struct DeadlineHeap {
    private(set) var entries: [Deadline] = []

    var count: Int { entries.count }
    var earliest: Deadline? { entries.first }

    mutating func insert(_ deadline: Deadline) {
        entries.append(deadline)
        siftUp(from: entries.count - 1)
    }

    mutating func removeEarliest() -> Deadline? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            siftDown(from: 0)
        }
        return first
    }

    /// Removes matching entries and rebuilds the heap in O(n).
    mutating func removeAll(where isStale: (Deadline) -> Bool) {
        entries.removeAll(where: isStale)
        var index = entries.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].instant < entries[parent].instant else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            let right = left + 1
            var smallest = left
            if right < entries.count, entries[right].instant < entries[left].instant { smallest = right }
            guard entries[smallest].instant < entries[parent].instant else { return }
            entries.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
