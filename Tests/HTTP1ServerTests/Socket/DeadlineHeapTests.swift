import Testing

@testable import NetworkRuntime

@Suite struct DeadlineHeapTests {
    @Test func yieldsDeadlinesInOrder() {
        let start = ContinuousClock.now
        var heap = DeadlineHeap()
        for offset in [5, 1, 4, 2, 3, 0] {
            heap.insert(Deadline(instant: start + .milliseconds(offset), descriptor: Int32(offset), direction: .read, token: UInt64(offset)))
        }
        var order: [Int32] = []
        while let next = heap.removeEarliest() { order.append(next.descriptor) }
        #expect(order == [0, 1, 2, 3, 4, 5])
    }

    @Test func removingEntriesKeepsTheHeapOrdered() {
        let start = ContinuousClock.now
        var heap = DeadlineHeap()
        for offset in 0..<50 {
            heap.insert(Deadline(instant: start + .milliseconds((offset * 37) % 50), descriptor: Int32(offset), direction: .write, token: 0))
        }
        heap.removeAll { $0.descriptor % 2 == 0 }
        var previous = start - .seconds(1)
        var count = 0
        while let next = heap.removeEarliest() {
            #expect(next.instant >= previous)
            #expect(next.descriptor % 2 == 1)
            previous = next.instant
            count += 1
        }
        #expect(count == 25)
    }
}
