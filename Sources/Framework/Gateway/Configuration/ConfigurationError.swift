/// A configuration value that stops start-up: which variable, and what is wrong with it.
///
/// The description is the single line printed to stderr. It quotes the offending value only
/// for variables that cannot hold a secret.
struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    let variable: String
    let problem: String

    var description: String { "configuration error: \(variable) \(problem)" }
}
