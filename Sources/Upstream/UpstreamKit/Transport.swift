import HTTPBasics

/// Sends one HTTP request and returns its response: the only piece of `Upstream` that touches the network.
///
/// Transports compose: a transport may wrap another to add headers, log, retry or count calls.
/// A transport returns every response it receives, whatever its status; it throws only when no
/// complete, trustworthy response arrived. It must return promptly, with `.cancelled`, when the
/// calling task is cancelled.
public protocol Transport: Sendable {
    func send(_ request: TransportRequest) async throws(UpstreamError) -> Response

    /// Whether `send` itself fails with `.timedOut` once `request.timeout` has passed.
    ///
    /// When true, `Upstream` trusts it and adds no timer task per attempt (a task group race
    /// otherwise); the default is false.
    var enforcesTimeout: Bool { get }
}

extension Transport {
    public var enforcesTimeout: Bool { false }
}
