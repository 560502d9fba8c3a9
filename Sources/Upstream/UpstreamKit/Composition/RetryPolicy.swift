import HTTPBasics

/// When a failed attempt is tried again, and after how long.
///
/// Only what is safe is retried: idempotent methods, after a connection failure or a 502, 503 or 429
/// answer; never a timeout (the time is spent) or a request that may have changed state. A
/// `Retry-After` longer than `longestRetryAfter` is not waited for: the failure goes to the caller.
/// Retries also draw on a per-upstream budget so that retries cannot multiply load on a failing upstream.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per call, the first included; 1 disables retries.
    public var maximumAttempts: Int
    /// The backoff before the first retry; it doubles for each later one.
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    /// Whether each backoff is drawn uniformly from zero to its value ("full jitter"), spreading retries out.
    public var jitter: Bool
    /// The longest `Retry-After` that is honoured by waiting.
    public var longestRetryAfter: Duration
    /// Retries earned per call: 0.2 allows retries of at most a fifth of all calls over time.
    public var budgetRatio: Double
    /// Retries that may be spent before any have been earned, and the most that can be saved up.
    public var budgetCapacity: Double

    public init(
        maximumAttempts: Int = 3,
        initialBackoff: Duration = .milliseconds(50),
        maximumBackoff: Duration = .seconds(1),
        jitter: Bool = true,
        longestRetryAfter: Duration = .seconds(2),
        budgetRatio: Double = 0.2,
        budgetCapacity: Double = 10
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.jitter = jitter
        self.longestRetryAfter = longestRetryAfter
        self.budgetRatio = budgetRatio
        self.budgetCapacity = budgetCapacity
    }

    /// No retries at all.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// Whether `outcome` of attempt number `attempt` (1-based) of a `method` request may be retried,
    /// and the delay before it; nil means give up. Ignores the budget, which the caller holds.
    public func delay(afterAttempt attempt: Int, of method: HTTPMethod, outcome: Result<Response, UpstreamError>) -> Duration? {
        guard attempt < maximumAttempts, method.isIdempotent else { return nil }
        var retryAfter: Duration?
        switch outcome {
        case .failure(.connectionFailed):
            break
        case .failure:
            return nil
        case .success(let response):
            switch response.status.code {
            case 502, 503, 429:
                retryAfter = RetryAfter.delay(response.headers["Retry-After"])
                if response.status.code == 429 && retryAfter == nil { return nil }
            default:
                return nil
            }
        }
        if let retryAfter, retryAfter > longestRetryAfter { return nil }
        let backoff = self.backoff(beforeRetry: attempt)
        return max(backoff, retryAfter ?? .zero)
    }

    /// The exponential backoff before retry number `retry` (1-based), before jitter.
    func backoff(beforeRetry retry: Int) -> Duration {
        let factor = 1 << min(max(retry - 1, 0), 30)
        let ceiling = min(initialBackoff * factor, maximumBackoff)
        guard jitter else { return ceiling }
        return ceiling * Double.random(in: 0...1)
    }
}
