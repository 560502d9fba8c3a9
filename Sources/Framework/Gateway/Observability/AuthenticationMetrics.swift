import CallerIdentity
import Synchronization

/// Requests refused for their bearer token, by reason, for `/metrics`.
final class AuthenticationMetrics: Sendable {
    /// Every reason, in the order rendered; `insufficient_scope` is a valid token's (403),
    /// `keys_unavailable` the gateway's own failure (503).
    static let reasons = [
        TokenRejection.missing, .tooLarge, .malformed(""), .unsupportedAlgorithm, .unknownKey, .badSignature, .expired, .notYetValid,
        .wrongIssuer, .wrongAudience,
    ].map(\.reason) + [AuthenticationRefusal.insufficientScope, "keys_unavailable"]

    private let counts = Mutex([Int](repeating: 0, count: AuthenticationMetrics.reasons.count))

    func record(_ reason: String) {
        guard let index = Self.reasons.firstIndex(of: reason) else { return }
        counts.withLock { $0[index] += 1 }
    }

    func render(into text: inout String) {
        PrometheusText.header(
            "gateway_authentication_failures_total", type: "counter",
            help: "Requests refused for their bearer token (401), for a scope it lacks (403), or because no key set could be fetched (503), by reason.",
            into: &text)
        let counts = self.counts.withLock { $0 }
        for (reason, count) in zip(Self.reasons, counts) {
            text += "gateway_authentication_failures_total{reason=\"\(reason)\"} \(count)\n"
        }
    }
}
