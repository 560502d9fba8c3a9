/// Learns of the retries of a call, for its caller's log: the gateway's request scope counts them
/// by call. A call names its observer (`Request.attemptObserver`); one that is never retried
/// costs it nothing.
public protocol AttemptObserver: AnyObject, Sendable {
    /// `request` failed an attempt and is about to be sent again (`RetryingTransport`).
    func retrying(_ request: TransportRequest)
}
