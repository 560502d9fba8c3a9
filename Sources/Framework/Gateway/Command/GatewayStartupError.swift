/// Why a gateway could not start: its one-line description is what the command prints, and
/// `exitStatus` what it exits with.
public struct GatewayStartupError: Error, CustomStringConvertible {
    /// One line naming the variable, catalog entry or address at fault; never a secret.
    public let description: String
    /// 2 for a configuration, catalog or usage error, which retrying will not fix; 1 otherwise.
    public let exitStatus: Int32

    static let configurationErrorStatus: Int32 = 2

    init(_ description: String, exitStatus: Int32) {
        self.description = description
        self.exitStatus = exitStatus
    }

    /// A configuration, catalog or usage error.
    static func configuration(_ description: String) -> GatewayStartupError {
        GatewayStartupError(description, exitStatus: configurationErrorStatus)
    }

    /// The catalog's first problem, when it has any.
    static func checking(_ catalog: GatewayCatalog) -> GatewayStartupError? {
        catalog.problems.first.map { .configuration("catalog error: \($0)") }
    }
}
