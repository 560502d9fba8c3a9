import HTTPBasics
import HTTPServerCore
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
        line.append(literal: #","method":"#)
        JSONString.append(method, to: &line)
        line.append(literal: #","path":"#)
        JSONString.append(path, to: &line)
        line.append(literal: #","route":"#)
        JSONString.append(route, to: &line)
        line.append(literal: #","status":"#)
        DecimalDigits.append(status, to: &line)
        line.append(literal: #","durationMs":"#)
        Self.appendMilliseconds(duration, to: &line)
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
        line.append(literal: "}\n")
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
