/// A declared input of an endpoint: it is documented in OpenAPI and validated from the same
/// declaration when the handler reads it, so the two cannot disagree.
public struct EndpointParameter: Sendable, Equatable {
    enum Location: String, Sendable {
        case path
        case query
    }

    enum Kind: Sendable, Equatable {
        /// A whole number in `range`; `defaultValue` is used when a query parameter is absent.
        case integer(range: ClosedRange<Int>, defaultValue: Int?)
        /// Any text of 1 to 200 characters without control characters.
        case string
        /// Text of 1 to `maximumLength` characters without control characters, matching
        /// `pattern` when there is one; `defaultValue` is used when a query parameter is absent.
        case text(maximumLength: Int, pattern: ParameterPattern?, defaultValue: String?)
    }

    let name: String
    let location: Location
    let kind: Kind
    let summary: String

    /// A whole-number path parameter in `range`, written `:name` in the endpoint's path.
    public static func path(_ name: String, integerIn range: ClosedRange<Int>, _ summary: String) -> EndpointParameter {
        EndpointParameter(name: name, location: .path, kind: .integer(range: range, defaultValue: nil), summary: summary)
    }

    /// A text path parameter (1 to 200 printable characters), written `:name` in the endpoint's path.
    public static func path(_ name: String, _ summary: String) -> EndpointParameter {
        EndpointParameter(name: name, location: .path, kind: .string, summary: summary)
    }

    /// A whole-number query parameter in `range`, `defaultValue` when absent.
    public static func query(_ name: String, integerIn range: ClosedRange<Int>, default defaultValue: Int, _ summary: String) -> EndpointParameter {
        EndpointParameter(name: name, location: .query, kind: .integer(range: range, defaultValue: defaultValue), summary: summary)
    }

    /// A text query parameter (1 to 200 printable characters); `call.string` requires it,
    /// `call.optionalString` allows it to be absent.
    public static func query(_ name: String, _ summary: String) -> EndpointParameter {
        EndpointParameter(name: name, location: .query, kind: .string, summary: summary)
    }

    /// The value of this parameter as an integer, from its raw text (nil when absent).
    func integer(from raw: String?) throws(GatewayProblem) -> Int {
        guard case .integer(let range, let defaultValue) = kind else {
            throw GatewayProblem(.internalServerError, "parameter \(name) is not declared as an integer")
        }
        guard let raw else {
            guard let defaultValue else { throw GatewayProblem(.badRequest, "\(name) is required") }
            return defaultValue
        }
        guard !raw.isEmpty, raw.utf8.count <= 18, raw.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(raw), range.contains(value)
        else {
            throw GatewayProblem(.badRequest, "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The (already percent-decoded) text of this parameter: 1 to 200 characters (or its declared
    /// maximum) without control characters, matching its pattern if it has one. Upstream paths
    /// take it through `Path`, which keeps it one segment.
    func string(from value: String?) throws(GatewayProblem) -> String {
        var maximumLength = 200
        var pattern: ParameterPattern?
        if case .text(let maximum, let declaredPattern, let defaultValue) = kind {
            maximumLength = maximum
            pattern = declaredPattern
            if value == nil {
                guard let defaultValue else { throw GatewayProblem(.badRequest, "\(name) is required") }
                return defaultValue
            }
        }
        guard let value, !value.isEmpty, value.utf8.count <= maximumLength, value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else {
            throw GatewayProblem(.badRequest, "\(name) must be 1 to \(maximumLength) printable characters")
        }
        if let pattern, !pattern.matches(value) {
            throw GatewayProblem(.badRequest, "\(name) must match the pattern \(pattern.source)")
        }
        return value
    }
}
