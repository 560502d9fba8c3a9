import HTTPBasics
import HTTPServerCore

/// One JSON line per request on the log output: id, method, path, route, status, duration
/// and the upstream calls made. Written at `info`; nothing is built when the level is higher.
///
/// The query is left out, since it may carry secrets; so are all headers.
struct AccessLog: Sendable {
    let level: LogLevel
    let output: LogOutput?

    func record(request: HTTPRequest, route: String, status: Int, duration: Duration, scope: RequestScope) {
        guard let output, level <= .info else { return }
        output.write(line(method: request.method.rawValue, path: request.path, route: route, status: status, duration: duration, scope: scope))
    }

    func line(method: String, path: String, route: String, status: Int, duration: Duration, scope: RequestScope) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(512)
        line.append(contentsOf: #"{"time":""#.utf8)
        LogTimestamp.append(to: &line)
        line.append(contentsOf: #"","level":"info","requestId":"#.utf8)
        JSONString.append(scope.requestID, to: &line)
        line.append(contentsOf: #","method":"#.utf8)
        JSONString.append(method, to: &line)
        line.append(contentsOf: #","path":"#.utf8)
        JSONString.append(path, to: &line)
        line.append(contentsOf: #","route":"#.utf8)
        JSONString.append(route, to: &line)
        line.append(contentsOf: #","status":"#.utf8)
        DecimalDigits.append(status, to: &line)
        line.append(contentsOf: #","durationMs":"#.utf8)
        Self.appendMilliseconds(duration, to: &line)
        line.append(contentsOf: #","upstreamCalls":["#.utf8)
        for (index, call) in scope.upstreamCalls.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(contentsOf: #"{"upstream":"#.utf8)
            JSONString.append(call.upstream, to: &line)
            line.append(contentsOf: #","outcome":""#.utf8)
            line.append(contentsOf: call.outcome.label.utf8)
            line.append(contentsOf: #"","status":"#.utf8)
            if let status = call.status {
                DecimalDigits.append(status, to: &line)
            } else {
                line.append(contentsOf: "null".utf8)
            }
            line.append(contentsOf: #","durationMs":"#.utf8)
            Self.appendMilliseconds(call.duration, to: &line)
            line.append(UInt8(ascii: "}"))
        }
        line.append(contentsOf: "]}\n".utf8)
        return line
    }

    /// Appends a duration as milliseconds with three decimals: `12.345`.
    private static func appendMilliseconds(_ duration: Duration, to bytes: inout [UInt8]) {
        let microseconds = max(0, Int(duration.nanoseconds / 1000))
        DecimalDigits.append(microseconds / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        DecimalDigits.append(microseconds % 1000, minimumCount: 3, to: &bytes)
    }
}
