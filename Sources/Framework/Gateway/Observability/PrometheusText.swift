/// Helpers of the Prometheus text exposition format (version 0.0.4).
enum PrometheusText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Escapes a label value: backslash, double quote and line feed.
    static func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The `# HELP` and `# TYPE` lines of a metric.
    static func header(_ name: String, type: String, help: String, into text: inout String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }
}
