/// When an upstream's circuit opens and how long it rests.
public struct CircuitBreakerSettings: Sendable, Equatable {
    /// Consecutive failed calls that open the circuit.
    public var failureThreshold: Int
    /// How long an open circuit refuses calls before it lets one probe through.
    public var coolDown: Duration

    public init(failureThreshold: Int = 5, coolDown: Duration = .seconds(10)) {
        self.failureThreshold = failureThreshold
        self.coolDown = coolDown
    }

    /// A breaker that never opens.
    public static let disabled = CircuitBreakerSettings(failureThreshold: .max, coolDown: .zero)
}
