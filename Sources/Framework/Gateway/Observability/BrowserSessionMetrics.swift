import Synchronization

/// The backend-for-frontend's counters for `/metrics`: sign-ins, failed sign-ins by reason, refreshes
/// of users' tokens and their failures, and the sessions this replica keeps.
final class BrowserSessionMetrics: Sendable {
    /// Why a sign-in failed, in the order rendered.
    static let failureReasons = ["state", "provider_refused", "token_endpoint", "id_token", "provider_unavailable"]

    private let counts = Mutex(Counts())
    /// The active sessions gauge, read at render time (nil for a store that does not count, such as a shared one).
    private let activeSessions: @Sendable () -> Int?

    private struct Counts {
        var signIns = 0
        var failures = [Int](repeating: 0, count: BrowserSessionMetrics.failureReasons.count)
        var refreshes = 0
        var refreshFailures = 0
    }

    init(activeSessions: @escaping @Sendable () -> Int?) {
        self.activeSessions = activeSessions
    }

    func recordSignIn() { counts.withLock { $0.signIns += 1 } }

    func recordFailedSignIn(_ reason: String) {
        guard let index = Self.failureReasons.firstIndex(of: reason) else { return }
        counts.withLock { $0.failures[index] += 1 }
    }

    func recordRefresh(succeeded: Bool) {
        counts.withLock { counts in
            if succeeded {
                counts.refreshes += 1
            } else {
                counts.refreshFailures += 1
            }
        }
    }

    /// What the counters say now: sign-ins, refreshes, refresh failures.
    var totals: (signIns: Int, refreshes: Int, refreshFailures: Int) {
        counts.withLock { ($0.signIns, $0.refreshes, $0.refreshFailures) }
    }

    func render(into text: inout String) {
        let counts = self.counts.withLock { $0 }
        PrometheusText.header("gateway_sign_ins_total", type: "counter", help: "Browsers signed in through the OpenID provider.", into: &text)
        text += "gateway_sign_ins_total \(counts.signIns)\n"
        PrometheusText.header(
            "gateway_sign_in_failures_total", type: "counter", help: "Sign-in callbacks refused or failed, by reason.", into: &text)
        for (reason, count) in zip(Self.failureReasons, counts.failures) {
            text += "gateway_sign_in_failures_total{reason=\"\(reason)\"} \(count)\n"
        }
        PrometheusText.header(
            "gateway_session_refreshes_total", type: "counter", help: "Users' access tokens refreshed with their refresh token.", into: &text)
        text += "gateway_session_refreshes_total \(counts.refreshes)\n"
        PrometheusText.header(
            "gateway_session_refresh_failures_total", type: "counter", help: "Refreshes the provider refused, each ending its session.", into: &text)
        text += "gateway_session_refresh_failures_total \(counts.refreshFailures)\n"
        if let active = activeSessions() {
            PrometheusText.header(
                "gateway_sessions_active", type: "gauge", help: "Sessions this replica keeps, ended ones not yet swept included.", into: &text)
            text += "gateway_sessions_active \(active)\n"
        }
    }
}
