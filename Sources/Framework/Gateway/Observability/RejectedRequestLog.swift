import ASCIISyntax
import HTTP1Server
import HTTPBasics
import JSONCoding
import Synchronization

/// One JSON line per request the server refused before routing (malformed, too large, bad
/// `Host`), at `info` like access lines, at most `linesPerWindow` per `window` in the whole
/// process, so a flood of bad requests cannot fill a disk.
///
/// Lines beyond the limit are counted, and one summary line (`suppressed N rejected-request
/// lines`) is written when the window in which the first of them came ends (and at shutdown,
/// by `writeSummary()`), so a flood shows as at most the limit plus one summary per window, and
/// its end is never left unreported.
final class RejectedRequestLog: Sendable {
    private let level: LogLevel
    private let output: LogOutput?
    private let linesPerWindow: Int
    private let window: Duration
    private let state: Mutex<State>

    private struct State {
        var windowStart: ContinuousClock.Instant
        var written = 0
        var suppressed = 0
        var isSummaryScheduled = false
    }

    private enum Verdict {
        case write
        case suppress
        /// The first line suppressed since the last summary: schedule the next one for this time.
        case suppressAndSummarize(at: ContinuousClock.Instant)
    }

    init(level: LogLevel, output: LogOutput?, linesPerWindow: Int = 20, window: Duration = .seconds(1)) {
        self.level = level
        self.output = output
        self.linesPerWindow = linesPerWindow
        self.window = window
        state = Mutex(State(windowStart: .now))
    }

    func record(_ rejection: RejectedRequest) {
        guard let output, level <= .info else { return }
        let now = ContinuousClock.now
        let verdict = state.withLock { state -> Verdict in
            if now - state.windowStart >= window {
                state.windowStart = now
                state.written = 0
            }
            if state.written < linesPerWindow {
                state.written += 1
                return .write
            }
            state.suppressed += 1
            guard !state.isSummaryScheduled else { return .suppress }
            state.isSummaryScheduled = true
            return .suppressAndSummarize(at: state.windowStart + window)
        }
        switch verdict {
        case .write:
            output.write { Self.appendLine(rejection, to: &$0) }
        case .suppress:
            break
        case .suppressAndSummarize(let deadline):
            Task { [self] in
                try? await Task.sleep(until: deadline)
                writeSummary()
            }
        }
    }

    /// Writes the summary of the lines suppressed since the last one, if any.
    func writeSummary() {
        let count = state.withLock { state -> Int in
            state.isSummaryScheduled = false
            defer { state.suppressed = 0 }
            return state.suppressed
        }
        guard let output, count > 0 else { return }
        output.write { line in
            Self.appendStart(to: &line)
            line.append(literal: #""message":"suppressed "#)
            DecimalDigits.append(count, to: &line)
            line.append(literal: #" rejected-request lines","suppressed":"#)
            DecimalDigits.append(count, to: &line)
            line.append(literal: "}\n")
        }
    }

    /// `{"time":…,"level":"info","message":"request rejected","status":400,"reason":…,"method":…,
    /// "target":…,"peer":…}`, with null for what is unknown.
    static func appendLine(_ rejection: RejectedRequest, to line: inout [UInt8]) {
        appendStart(to: &line)
        line.append(literal: #""message":"request rejected","status":"#)
        DecimalDigits.append(rejection.status.code, to: &line)
        line.append(literal: #","reason":"#)
        JSONString.append(rejection.reason, to: &line)
        line.append(literal: #","method":"#)
        appendOptional(rejection.method, to: &line)
        line.append(literal: #","target":"#)
        appendOptional(rejection.target, to: &line)
        line.append(literal: #","peer":"#)
        appendOptional(rejection.peer, to: &line)
        line.append(literal: "}\n")
    }

    private static func appendStart(to line: inout [UInt8]) {
        line.append(literal: #"{"time":""#)
        LogTimestamp.append(to: &line)
        line.append(literal: #"","level":"info","#)
    }

    private static func appendOptional(_ text: String?, to line: inout [UInt8]) {
        if let text {
            JSONString.append(text, to: &line)
        } else {
            line.append(literal: "null")
        }
    }
}
