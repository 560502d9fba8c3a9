/// When an upstream's circuit opens, how long it rests, and what counts as a failure.
public struct CircuitBreakerSettings: Sendable, Equatable {
    /// Consecutive failed calls that open the circuit.
    public var failureThreshold: Int
    /// How long an open circuit refuses calls before it lets one probe through.
    public var coolDown: Duration
    /// Whether the upstream's own answers that say it failed count as failures: a 5xx, and a body
    /// too large or undecodable. Off by default, as nginx counts only `error timeout` unless
    /// `proxy_next_upstream` names statuses: which path a client asks for picks the answer, so
    /// one client's requests for a failing path would otherwise pause every path for everyone.
    /// Transport failures (no connection, reset, timeout, an invalid response) always count.
    public var countsServerErrors: Bool

    public init(failureThreshold: Int = 5, coolDown: Duration = .seconds(10), countsServerErrors: Bool = false) {
        self.failureThreshold = failureThreshold
        self.coolDown = coolDown
        self.countsServerErrors = countsServerErrors
    }

    /// A breaker that never opens.
    public static let disabled = CircuitBreakerSettings(failureThreshold: .max, coolDown: .zero)

    /// How a call that ended in `error` counts against the upstream's health under these settings.
    public func outcome(of error: UpstreamError) -> CircuitBreaker.Outcome {
        switch error {
        case .timedOut, .connectionFailed, .untrustedCertificate, .invalidResponse:
            .failure
        // The upstream answered: a failure only when the operator counts its failing answers.
        case .status(let status, _):
            countsServerErrors && status.code >= 500 ? .failure : .success
        case .bodyTooLarge, .undecodableBody, .decodingFailed:
            countsServerErrors ? .failure : .success
        // A redirect the gateway will not follow is the configuration's concern, not an outage.
        // A client's upload that broke off says nothing of the upstream either.
        case .refusedLink, .refusedRedirect, .tooManyRedirects, .invalidRequest, .circuitOpen, .overloaded, .cancelled, .requestBodyFailed:
            .neutral
        }
    }
}
