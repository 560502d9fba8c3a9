import ASCIISyntax
import HTTPBasics
import JSONCoding
import NetworkRuntime

extension AccessLog {
    /// One JSON line when a WebSocket through a proxy route ends, after the access line of its
    /// `101`: the same request id, trace id, path and route, then how long it was open, the bytes
    /// each way, and how it ended (`closed`, `idle`, `cancelled` by shutdown, or `failed: …`).
    func recordWebSocket(
        path: String, route: String, upstream: String, requestID: String, trace: TraceContext, duration: Duration, outcome: SocketRelay.Outcome
    ) {
        guard let output, level <= .info else { return }
        output.write { line in
            Self.appendStart(requestID: requestID, trace: trace, to: &line)
            line.append(literal: #","event":"websocket","path":"#)
            JSONString.append(path, to: &line)
            line.append(literal: #","route":"#)
            JSONString.append(route, to: &line)
            line.append(literal: #","upstream":"#)
            JSONString.append(upstream, to: &line)
            line.append(literal: #","durationMs":"#)
            Self.appendMilliseconds(duration, to: &line)
            line.append(literal: #","bytesToUpstream":"#)
            DecimalDigits.append(outcome.bytesForward, to: &line)
            line.append(literal: #","bytesToClient":"#)
            DecimalDigits.append(outcome.bytesBackward, to: &line)
            line.append(literal: #","ending":"#)
            JSONString.append(Self.label(of: outcome.ending), to: &line)
            line.append(literal: "}\n")
        }
    }

    private static func label(of ending: SocketRelay.Ending) -> String {
        switch ending {
        case .closed: "closed"
        case .idle: "idle"
        case .cancelled: "cancelled"
        case .failed(let error): "failed: \(error)"
        }
    }
}
