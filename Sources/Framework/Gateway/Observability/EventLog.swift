import HTTP1Server
import JSONCoding

/// Log lines other than the access log, as JSON objects on the log output, written only at or
/// above the configured level.
struct EventLog: Sendable {
    let level: LogLevel
    let output: LogOutput?

    func isEnabled(_ lineLevel: LogLevel) -> Bool {
        output != nil && lineLevel >= level && lineLevel != .off
    }

    func log(_ lineLevel: LogLevel, _ message: String) {
        guard let output, isEnabled(lineLevel) else { return }
        output.write { line in
            line.append(contentsOf: #"{"time":""#.utf8)
            LogTimestamp.append(to: &line)
            line.append(contentsOf: #"","level":""#.utf8)
            line.append(contentsOf: lineLevel.name.utf8)
            line.append(contentsOf: #"","message":"#.utf8)
            JSONString.append(message, to: &line)
            line.append(contentsOf: "}\n".utf8)
        }
    }
}
