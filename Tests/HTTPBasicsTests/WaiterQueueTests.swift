import Testing

@testable import HTTPBasics

@Suite struct WaiterQueueTests {
    @Test func waitersAreTakenInTheOrderTheyCame() {
        var queue = WaiterQueue<Int, String>()
        #expect(queue.popFirst() == nil && queue.count == 0)
        for (id, name) in ["a", "b", "c"].enumerated() { queue.append(name, id: id) }
        #expect(queue.count == 3 && Array(queue.waiters) == ["a", "b", "c"])
        #expect(queue.popFirst() == "a" && queue.popFirst() == "b")
        queue.append("d", id: 3)
        #expect(Array(queue.waiters) == ["c", "d"])
        #expect(queue.popFirst() == "c" && queue.popFirst() == "d" && queue.popFirst() == nil && queue.count == 0)
    }

    @Test func aWaiterLeavesByItsIdOnlyWhileItWaits() {
        var queue = WaiterQueue<Int, String>()
        for (id, name) in ["a", "b", "c"].enumerated() { queue.append(name, id: id) }
        #expect(queue.popFirst() == "a")
        #expect(queue.remove(id: 0) == nil, "already taken")
        #expect(queue.remove(id: 2) == "c" && queue.remove(id: 2) == nil)
        #expect(queue.count == 1 && queue.popFirst() == "b")
    }

    @Test func waitersPickedByAPredicateLeaveInOrder() {
        var queue = WaiterQueue<Int, Int>()
        for value in 0..<10 { queue.append(value, id: value) }
        _ = queue.popFirst()
        #expect(queue.removeAll { $0.isMultiple(of: 3) } == [3, 6, 9])
        #expect(queue.removeAll { $0 > 100 } == [])
        #expect(Array(queue.waiters) == [1, 2, 4, 5, 7, 8])
        queue.append(10, id: 10)
        #expect(queue.popFirst() == 1 && queue.count == 6)
    }

    /// A long line taken from the front keeps its order through compactions, and its ids.
    @Test func aLongLineStaysInOrderAsItsFrontIsTaken() {
        var queue = WaiterQueue<Int, Int>()
        var next = 0, expected = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 3) {
                queue.append(next, id: next)
                next += 1
            }
            for _ in 0..<(round % 5 + 1) {
                guard let first = queue.popFirst() else { break }
                #expect(first == expected)
                expected += 1
            }
        }
        #expect(queue.remove(id: next - 1) == next - 1)
        #expect(queue.count == next - 1 - expected)
        #expect(Array(queue.waiters) == Array(expected..<(next - 1)))
    }
}
