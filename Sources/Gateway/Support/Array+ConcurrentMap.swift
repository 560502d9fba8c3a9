extension Array where Element: Sendable {
    /// Transforms every element at once, keeping the order of the elements: the first in the
    /// calling task, the others in a task group. The first failure cancels the others and is rethrown.
    func concurrentMap<Value: Sendable>(_ transform: @escaping @Sendable (Element) async throws -> Value) async throws -> [Value] {
        guard count > 1 else { return try await asyncMap(transform) }
        return try await withThrowingTaskGroup(of: (Int, Value).self) { group in
            for index in indices.dropFirst() {
                let element = self[index]
                group.addTask { (index, try await transform(element)) }
            }
            var values = [Value?](repeating: nil, count: count)
            values[0] = try await transform(self[0])
            for try await (index, value) in group {
                values[index] = value
            }
            return values.compactMap { $0 }
        }
    }

    private func asyncMap<Value>(_ transform: (Element) async throws -> Value) async rethrows -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        for element in self {
            values.append(try await transform(element))
        }
        return values
    }
}
