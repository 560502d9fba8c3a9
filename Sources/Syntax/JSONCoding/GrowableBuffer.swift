/// A stack of plain values in memory of its own, for hot paths where an array's uniqueness and
/// bounds checks on every append cost as much as the work around them.
///
/// Indices are not checked: callers keep them below `count`. Copies share the memory; the owner
/// must call `deallocate()` exactly once.
struct GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var start: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        start = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    subscript(index: Int) -> Element {
        get { start[index] }
        nonmutating set { start[index] = newValue }
    }

    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (start + count).initialize(to: element)
        count += 1
    }

    mutating func removeLast() -> Element {
        count -= 1
        return start[count]
    }

    func deallocate() {
        start.deallocate()
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity * 2
        let newStart = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newStart.moveInitialize(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }
}
