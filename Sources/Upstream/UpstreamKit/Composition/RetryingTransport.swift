import HTTPBasics

/// Retries failed attempts as its `RetryPolicy` allows, within an overall deadline for the whole call.
///
/// The call ends at its own deadline or at the request's (`TransportRequest.deadline`), whichever
/// comes first. Each attempt gets the per-attempt timeout, cut down to what is left until then; no
/// backoff starts that would end after it, and the last outcome goes to the caller.
public struct RetryingTransport: Transport {
    private let base: any Transport
    private let policy: RetryPolicy
    private let deadline: Duration
    private let budget: RetryBudget
    private let time: TimeSource

    /// - Parameters:
    ///   - deadline: the longest a whole call may take, all attempts and backoffs included.
    public init(wrapping base: any Transport, policy: RetryPolicy, deadline: Duration, time: TimeSource = .continuous) {
        self.base = base
        self.policy = policy
        self.deadline = deadline
        self.time = time
        budget = RetryBudget(ratio: policy.budgetRatio, capacity: policy.budgetCapacity)
    }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        budget.recordCall()
        let end = Self.end(of: time.now() + deadline, requestDeadline: request.deadline)
        var attempt = 1
        var attemptRequest = request
        while true {
            let attemptStart = time.now()
            attemptRequest.timeout = min(request.timeout, attemptStart.duration(to: end))
            let outcome: Result<Response, UpstreamError>
            do {
                outcome = .success(try await base.send(attemptRequest))
            } catch {
                outcome = .failure(error)
            }
            guard let delay = retryDelay(afterAttempt: attempt, of: request, outcome: outcome, end: end) else {
                return try outcome.get()
            }
            let retried = RetriedAttempt(start: attemptStart, end: time.now(), outcome: outcome)
            try await time.sleep(delay)
            request.attemptObserver?.retrying(&attemptRequest, after: retried)
            attempt += 1
        }
    }

    /// When the call must be over: its own deadline, or the request's when that comes first, so a
    /// backoff never sleeps past the answer the client is waiting for.
    private static func end(of callDeadline: ContinuousClock.Instant, requestDeadline: ContinuousClock.Instant?) -> ContinuousClock.Instant {
        guard let requestDeadline else { return callDeadline }
        return min(callDeadline, requestDeadline)
    }

    /// The wait before the next attempt, or nil to give up; spends a retry from the budget. A
    /// request with a streamed body has one attempt: the stream is read once.
    ///
    /// Never inlined into `send`: its temporaries would otherwise enlarge the async frame that
    /// every call in flight holds while it waits for the upstream.
    @inline(never)
    private func retryDelay(
        afterAttempt attempt: Int,
        of request: TransportRequest,
        outcome: Result<Response, UpstreamError>,
        end: ContinuousClock.Instant
    ) -> Duration? {
        guard request.bodyStream == nil,
              let delay = policy.delay(afterAttempt: attempt, of: request.method, outcome: outcome),
              time.now() + delay < end,
              budget.spendRetry()
        else { return nil }
        return delay
    }
}
