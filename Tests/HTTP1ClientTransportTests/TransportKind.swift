import FoundationTransport
import HTTP1ClientTransport
import Testing
import UpstreamKit

/// The transports the gateway can put under an upstream, as `Upstream` composes them: URLSession's
/// own timeout is an idle timer, so it runs under `TimeoutTransport`; the pooled client keeps its
/// own deadline (`enforcesTimeout`).
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pooled
    case urlSession

    var testDescription: String { rawValue }

    func makeTransport() -> any Transport {
        switch self {
        case .pooled: PooledTransport()
        case .urlSession: TimeoutTransport(wrapping: URLSessionTransport())
        }
    }
}
