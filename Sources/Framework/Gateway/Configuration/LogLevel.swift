/// How much the gateway writes to its logs (`LOG_LEVEL`); each level includes the ones after it.
public enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    /// Everything, each upstream attempt included.
    case debug
    /// Access lines and events such as start-up, reloads and shutdown steps.
    case info
    /// What an operator should look at: failing upstreams, refused reloads, Redis trouble.
    case warning
    /// What stopped a request or a task from doing its work.
    case error
    /// Nothing.
    case off

    /// Parses `LOG_LEVEL`, ignoring case; `nil` for an unknown name.
    init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name.equalsIgnoringASCIICase(name) }) else { return nil }
        self = level
    }

    var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        case .off: "off"
        }
    }

    /// Orders the levels from the most verbose, `trace`, to `off`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
