import HTTPBasics
import UpstreamKit

/// Reads and validates configuration variables from an environment, throwing one
/// `ConfigurationError` that names the first bad variable.
struct EnvironmentReader {
    let environment: [String: String]
    /// The client context every https upstream without files of its own shares (`upstreamTLS`).
    let systemTrust = SystemTrust()

    /// The variable's value, or its default when unset.
    func text(_ variable: ConfigurationVariable) -> String {
        environment[variable.name] ?? variable.defaultValue
    }

    func integer(_ variable: ConfigurationVariable, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let value = text(variable)
        guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let number = Int(value), range.contains(number)
        else {
            throw ConfigurationError(
                variable: variable.name,
                problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(quoted(value, of: variable))")
        }
        return number
    }

    func milliseconds(_ variable: ConfigurationVariable, in range: ClosedRange<Int>) throws(ConfigurationError) -> Duration {
        .milliseconds(try integer(variable, in: range))
    }

    func baseURL(_ variable: ConfigurationVariable) throws(ConfigurationError) -> BaseURL {
        do {
            return try BaseURL(text(variable))
        } catch {
            // The parser's reasons are fixed phrases, never the URL, which may hold credentials.
            throw ConfigurationError(
                variable: variable.name,
                problem: "must be an absolute http:// or https:// URL without credentials, query or fragment (\(error.reason))")
        }
    }

    /// A secret token: optional, without spaces or control characters.
    func token(_ variable: ConfigurationVariable) throws(ConfigurationError) -> String? {
        let value = text(variable)
        // Set to nothing is most often a secret that did not arrive (an unset shell variable, an
        // empty key of a Kubernetes Secret): calling without the credential would fail later and
        // far from the cause.
        if environment[variable.name]?.isEmpty == true {
            throw ConfigurationError(variable: variable.name, problem: "is set but empty; unset it to send no credential")
        }
        guard !value.isEmpty else { return nil }
        guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ConfigurationError(variable: variable.name, problem: "must be printable ASCII without spaces")
        }
        return value
    }

    /// `Name: value` pairs separated by `;`, refusing names that would break framing or routing.
    func headers(_ variable: ConfigurationVariable) throws(ConfigurationError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (position, pair) in text(variable).split(separator: ";").enumerated() {
            let trimmedPair = pair.trimmingWhitespace
            guard !trimmedPair.isEmpty else { continue }
            guard let colon = trimmedPair.firstIndex(of: ":") else {
                throw ConfigurationError(variable: variable.name, problem: "entry \(position + 1) is not 'Name: value'")
            }
            let name = String(trimmedPair[..<colon].trimmingWhitespace)
            let value = String(trimmedPair[trimmedPair.index(after: colon)...].trimmingWhitespace)
            guard FieldSyntax.isToken(name) else {
                throw ConfigurationError(variable: variable.name, problem: "entry \(position + 1) has an invalid header name")
            }
            guard !EnvironmentReader.reservedHeaders.contains(where: { $0.equalsIgnoringASCIICase(name) }) else {
                throw ConfigurationError(variable: variable.name, problem: "must not set \(name), which the gateway manages")
            }
            guard FieldSyntax.isFieldValue(value) else {
                throw ConfigurationError(variable: variable.name, problem: "header \(name) has control characters in its value")
            }
            headers.add(name, value)
        }
        return headers
    }

    /// A header value the gateway sends as it is: printable ASCII without leading or trailing
    /// spaces (a parser would strip those), or nil when set empty.
    func headerValue(_ variable: ConfigurationVariable) throws(ConfigurationError) -> String? {
        let value = text(variable)
        guard !value.isEmpty else { return nil }
        guard value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), value.utf8.first != 0x20, value.utf8.last != 0x20 else {
            throw ConfigurationError(
                variable: variable.name,
                problem: "must be printable ASCII without control characters or surrounding spaces, or empty, "
                    + "got \(quoted(value, of: variable))")
        }
        return value
    }

    func logLevel(_ variable: ConfigurationVariable) throws(ConfigurationError) -> LogLevel {
        let value = text(variable)
        guard let level = LogLevel(name: value) else {
            let names = LogLevel.allCases.map(\.name).joined(separator: ", ")
            throw ConfigurationError(variable: variable.name, problem: "must be one of \(names), got \(quoted(value, of: variable))")
        }
        return level
    }

    /// Headers that framing, routing or the gateway's own request handling owns.
    private static let reservedHeaders = [
        "Host", "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Upgrade", "TE", "Trailer",
        "Proxy-Connection", RequestID.headerName, TraceParent.headerName, TraceState.headerName,
    ]

    func quoted(_ value: String, of variable: ConfigurationVariable) -> String {
        guard !variable.isSecret else { return "a value that is not shown" }
        let printable = value.utf8.count <= 64 && value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        return printable ? "\"\(value)\"" : "an unprintable or overlong value"
    }
}
