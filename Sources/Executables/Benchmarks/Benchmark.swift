/// One measured operation: a name to filter and report by, and a body that performs the
/// operation a given number of times (a batch, so the loop costs nothing per operation).
struct Benchmark: Sendable {
    let name: String
    let body: @Sendable (_ iterations: Int) async throws -> Void

    init(_ name: String, body: @escaping @Sendable (_ iterations: Int) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// A benchmark whose operation is synchronous.
    static func repeating(_ name: String, _ operation: @escaping @Sendable () throws -> Void) -> Benchmark {
        Benchmark(name) { iterations in
            for _ in 0..<iterations { try operation() }
        }
    }

    /// A benchmark whose operation is an exchange: `concurrency` workers share the batch, each
    /// starting its next operation as soon as its last one is done.
    static func concurrent(
        _ name: String, concurrency: Int, _ operation: @escaping @Sendable () async throws -> Void
    ) -> Benchmark {
        Benchmark(name) { iterations in
            let countdown = RequestCountdown(iterations)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    // Child tasks inherit the caller's preferred executor (the suite's event loop).
                    group.addTask {
                        while countdown.take() { try await operation() }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}

/// Keeps the optimizer from deleting a result nobody reads.
@inline(never)
func consume<Value>(_ value: Value) {
    withExtendedLifetime(value) {}
}
