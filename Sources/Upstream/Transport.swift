import HTTPBasics

/// Sends one HTTP request and returns its response: the only piece of `Upstream` that touches the network.
///
/// Transports compose: a transport may wrap another to add headers, log, retry or count calls.
public protocol Transport: Sendable {
    func send(_ request: TransportRequest) async throws(UpstreamError) -> Response
}
