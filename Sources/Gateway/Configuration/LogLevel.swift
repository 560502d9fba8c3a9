/// How much the gateway writes to its logs; each level includes the ones above it.
enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case debug
    case info
    case warning
    case error
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

    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
