/// Learns of the retries of the calls a task makes, for its caller's log: the gateway's request
/// scope counts them by call. A call that is never retried costs it nothing.
public protocol AttemptObserver: AnyObject, Sendable {
    /// `request` failed an attempt and is about to be sent again (`RetryingTransport`).
    func retrying(_ request: TransportRequest)
}

/// Where `RetryingTransport` finds the observer of the calls of the current task.
public enum AttemptObservation {
    /// The observer of the current task's calls, inherited by its child tasks; nil: none.
    @TaskLocal public static var current: (any AttemptObserver)?
}
