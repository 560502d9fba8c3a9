extension Array where Element: Sendable {
    /// Transforms every element at once, keeping the order of the elements: the first in the
    /// calling task, the others in a task group. A failure is rethrown once every element has
    /// finished, not by cancelling the others: a call that already reached an upstream may get an
    /// answer the upstream acted on (one carrying a rotated token, say), and dropping it unread
    /// would leave every later call with a credential the upstream no longer accepts.
    func concurrentMap<Value: Sendable>(_ transform: @escaping @Sendable (Element) async throws -> Value) async throws -> [Value] {
        guard count > 1 else { return try await asyncMap(transform) }
        return try await withThrowingTaskGroup(of: (Int, Value).self) { group in
            for index in indices.dropFirst() {
                let element = self[index]
                group.addTask { (index, try await transform(element)) }
            }
            var values = [Value?](repeating: nil, count: count)
            var firstFailure: (any Error)?
            do {
                values[0] = try await transform(self[0])
            } catch {
                firstFailure = error
            }
            while let result = await group.nextResult() {
                switch result {
                case .success(let (index, value)): values[index] = value
                case .failure(let error): firstFailure = firstFailure ?? error
                }
            }
            if let firstFailure { throw firstFailure }
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
