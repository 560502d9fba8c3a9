/// Learns of the retries of a call, for its caller's log and trace: the gateway's request scope
/// counts them by call and gives each attempt its own trace context. A call names its observer
/// (`Request.attemptObserver`); one that is never retried costs it nothing.
public protocol AttemptObserver: AnyObject, Sendable {
    /// `request` failed `attempt` and is about to be sent again (`RetryingTransport`); what the
    /// observer changes in it (a `traceparent` of the next attempt's own) goes with that attempt.
    func retrying(_ request: inout TransportRequest, after attempt: RetriedAttempt)

    /// The upstream's credentials were renewed while `request` was being sent; told with how,
    /// never with the credentials themselves.
    func renewedCredentials(during request: TransportRequest, _ renewal: CredentialRenewal)
}

extension AttemptObserver {
    /// Nothing: an observer that only counts retries.
    public func renewedCredentials(during request: TransportRequest, _ renewal: CredentialRenewal) {}
}

/// How an upstream's credentials were renewed during a call, as its observer learns it.
public struct CredentialRenewal: Sendable {
    /// Where the new credentials came from.
    public enum Source: String, Sendable {
        /// An OAuth 2.0 client-credentials grant (`OAuth2ClientCredentials`) the call waited for.
        case clientCredentialsGrant = "oauth2_client_credentials"
        /// A token the upstream handed out in an answer's field (`BearerToken.refreshHeader`).
        case responseField = "response_field"
    }

    public let source: Source
    /// Why the renewal failed; nil when it brought new credentials.
    public let failure: UpstreamError?

    /// A renewal from `source` that failed with `failure`, or succeeded when it is nil.
    public init(source: Source, failure: UpstreamError?) {
        self.source = source
        self.failure = failure
    }
}

/// An attempt of a call that `RetryingTransport` sends again.
public struct RetriedAttempt: Sendable {
    /// When the attempt was sent and when it ended, on the upstream's `TimeSource`.
    public let start: ContinuousClock.Instant
    public let end: ContinuousClock.Instant
    /// The answer that is retried (a 503, say), or the failure.
    public let outcome: Result<Response, UpstreamError>

    /// An attempt sent at `start` that ended at `end` with `outcome`.
    public init(start: ContinuousClock.Instant, end: ContinuousClock.Instant, outcome: Result<Response, UpstreamError>) {
        self.start = start
        self.end = end
        self.outcome = outcome
    }
}
