import Foundation
import Synchronization

/// Reloads by outcome and when the configuration was last read without error, for `/metrics`;
/// one per process, handed from each configuration to the next. Named as Prometheus names its own.
final class ReloadMetrics: Sendable {
    /// What one reload did.
    enum Outcome: Int, CaseIterable, Sendable {
        /// The configuration read differed and now serves.
        case applied
        /// The configuration read was the one serving; nothing was swapped.
        case unchanged
        /// The configuration read was refused; the one serving is kept.
        case failed

        var label: String {
            switch self {
            case .applied: "applied"
            case .unchanged: "unchanged"
            case .failed: "failed"
            }
        }
    }

    private struct State {
        var counts = [Int](repeating: 0, count: Outcome.allCases.count)
        var lastSucceeded = true
        /// Seconds since the Unix epoch; start-up counts as the first successful read.
        var lastSuccess: Double
    }

    private let state: Mutex<State>

    /// Metrics of a configuration read `now`, at start-up.
    init(loadedAt now: Date = Date()) {
        state = Mutex(State(lastSuccess: now.timeIntervalSince1970))
    }

    func record(_ outcome: Outcome, at now: Date = Date()) {
        state.withLock { state in
            state.counts[outcome.rawValue] += 1
            state.lastSucceeded = outcome != .failed
            if outcome != .failed { state.lastSuccess = now.timeIntervalSince1970 }
        }
    }

    /// Reloads so far with `outcome`.
    func count(_ outcome: Outcome) -> Int {
        state.withLock { $0.counts[outcome.rawValue] }
    }

    func render(into text: inout String) {
        let state = state.withLock { $0 }
        PrometheusText.header(
            "gateway_config_reloads_total", type: "counter",
            help: "Reloads (SIGHUP) by outcome: applied, unchanged (the same file), failed (the running configuration kept).",
            into: &text)
        for outcome in Outcome.allCases {
            text += "gateway_config_reloads_total{outcome=\"\(outcome.label)\"} \(state.counts[outcome.rawValue])\n"
        }
        PrometheusText.header(
            "gateway_config_last_reload_successful", type: "gauge",
            help: "1 when the last read of the configuration (start-up or reload) succeeded, 0 when it was refused.", into: &text)
        text += "gateway_config_last_reload_successful \(state.lastSucceeded ? 1 : 0)\n"
        PrometheusText.header(
            "gateway_config_last_reload_success_timestamp_seconds", type: "gauge",
            help: "When the configuration was last read without error (start-up or reload), in seconds since the Unix epoch.",
            into: &text)
        text += "gateway_config_last_reload_success_timestamp_seconds \(Int(state.lastSuccess))\n"
    }
}
