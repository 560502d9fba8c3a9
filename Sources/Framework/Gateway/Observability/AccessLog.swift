import ASCIISyntax
import HTTP1Server
import HTTPBasics
import JSONCoding

/// One JSON line per request on the log output: id, trace id, method, path, route, status, duration
/// and the upstream calls made, with what the shared cache did for each. Written at `info`; nothing is built when the level is higher.
///
/// The query is left out, since it may carry secrets; so are all headers.
struct AccessLog: Sendable {
    let level: LogLevel
    let output: LogOutput?

    func record(request: HTTPRequest, route: String, status: Int, duration: Duration, scope: RequestScope) {
        guard let output, level <= .info else { return }
        output.write { line in
            appendLine(method: request.method.rawValue, path: request.path, route: route, status: status, duration: duration, scope: scope, to: &line)
        }
    }

    func appendLine(method: String, path: String, route: String, status: Int, duration: Duration, scope: RequestScope, to line: inout [UInt8]) {
        Self.appendStart(requestID: scope.requestID, trace: scope.trace, to: &line)
        Self.appendRequest(method: method, path: path, route: route, status: status, to: &line)
        line.append(literal: #","durationMs":"#)
        Self.appendMilliseconds(duration, to: &line)
        appendCalls(of: scope, to: &line)
        line.append(literal: "}\n")
    }

    /// The recording of a request whose answer streams, to call when the stream ends: its line is
    /// written then, with `durationMs` up to the end, `headMs` up to the answer's head, and the
    /// body's bytes and how it ended (`bodyEnd`: `complete`, `cancelled` when the client went away
    /// or the gateway cut it, else the failure). What is known at the head is rendered now, so
    /// the stream holds a few hundred bytes rather than the request. Nil when the level drops the line.
    func recordingWhenStreamEnds(
        request: HTTPRequest, route: String, status: Int, headDuration: Duration, scope: RequestScope
    ) -> (@Sendable (_ bytes: Int, _ error: HTTPBodyError?) -> Void)? {
        guard let output, level <= .info else { return nil }
        var known: [UInt8] = []
        Self.appendRequest(method: request.method.rawValue, path: request.path, route: route, status: status, to: &known)
        var calls: [UInt8] = []
        appendCalls(of: scope, to: &calls)
        let (requestID, trace, start) = (scope.requestID, scope.trace, scope.start)
        return { [known, calls] bytes, error in
            let duration = start.duration(to: .now)
            output.write { line in
                Self.appendStart(requestID: requestID, trace: trace, to: &line)
                line.append(contentsOf: known)
                line.append(literal: #","durationMs":"#)
                Self.appendMilliseconds(duration, to: &line)
                line.append(literal: #","headMs":"#)
                Self.appendMilliseconds(headDuration, to: &line)
                line.append(contentsOf: calls)
                line.append(literal: #","bodyBytes":"#)
                DecimalDigits.append(bytes, to: &line)
                line.append(literal: #","bodyEnd":"#)
                JSONString.append(Self.bodyEnd(error), to: &line)
                line.append(literal: "}\n")
            }
        }
    }

    /// How a streamed body ended, for `bodyEnd`.
    private static func bodyEnd(_ error: HTTPBodyError?) -> String {
        switch error {
        case nil: "complete"
        case .cancelled: "cancelled"
        case .timedOut: "stalled"
        case .tooLarge: "too large"
        case .failed(let reason): reason
        }
    }

    private static func appendRequest(method: String, path: String, route: String, status: Int, to line: inout [UInt8]) {
        line.append(literal: #","method":"#)
        JSONString.append(method, to: &line)
        line.append(literal: #","path":"#)
        JSONString.append(path, to: &line)
        line.append(literal: #","route":"#)
        JSONString.append(route, to: &line)
        line.append(literal: #","status":"#)
        DecimalDigits.append(status, to: &line)
    }

    /// Appends `"upstreamCalls":[…]` and, when parts were left out, `"degraded":[…]`.
    private func appendCalls(of scope: RequestScope, to line: inout [UInt8]) {
        line.append(literal: #","upstreamCalls":["#)
        for (index, call) in scope.upstreamCalls.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(literal: #"{"call":"#)
            JSONString.append(call.call, to: &line)
            line.append(literal: #","upstream":"#)
            JSONString.append(call.upstream, to: &line)
            line.append(literal: #","outcome":""#)
            line.append(contentsOf: call.outcome.label.utf8)
            line.append(literal: #"","status":"#)
            if let status = call.status {
                DecimalDigits.append(status, to: &line)
            } else {
                line.append(literal: "null")
            }
            line.append(literal: #","attempts":"#)
            DecimalDigits.append(call.attempts, to: &line)
            line.append(literal: #","durationMs":"#)
            Self.appendMilliseconds(call.duration, to: &line)
            if let cache = call.cache {
                line.append(literal: #","cache":""#)
                line.append(contentsOf: cache.label.utf8)
                if cache.collapsed { line.append(literal: #"","coalesced":true"#) } else { line.append(UInt8(ascii: "\"")) }
            }
            if call.redirects > 0 {
                line.append(literal: #","redirects":"#)
                DecimalDigits.append(call.redirects, to: &line)
            }
            line.append(UInt8(ascii: "}"))
        }
        line.append(UInt8(ascii: "]"))
        let degraded = scope.degraded
        if !degraded.isEmpty {
            line.append(literal: #","degraded":["#)
            for (index, part) in degraded.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                JSONString.append(part, to: &line)
            }
            line.append(UInt8(ascii: "]"))
        }
    }

    /// Appends what starts every line about a request: `{"time":…,"level":"info","requestId":…,"traceId":…`.
    static func appendStart(requestID: String, trace: TraceContext, to line: inout [UInt8]) {
        line.append(literal: #"{"time":""#)
        LogTimestamp.append(to: &line)
        line.append(literal: #"","level":"info","requestId":"#)
        JSONString.append(requestID, to: &line)
        line.append(literal: #","traceId":""#)
        trace.appendTraceID(to: &line)
        line.append(UInt8(ascii: "\""))
    }

    /// Appends a duration as milliseconds with three decimals: `12.345`.
    static func appendMilliseconds(_ duration: Duration, to bytes: inout [UInt8]) {
        let microseconds = max(0, Int(duration.nanoseconds / 1000))
        DecimalDigits.append(microseconds / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        DecimalDigits.append(microseconds % 1000, minimumCount: 3, to: &bytes)
    }
}
