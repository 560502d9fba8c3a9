import Foundation

/// A regular expression a text parameter must match as a whole, compiled once at start-up.
struct ParameterPattern: Sendable, Equatable {
    /// The expression as declared, for OpenAPI and error details.
    let source: String
    private let expression: NSRegularExpression

    /// - Throws: `InvalidPattern` when `source` is not a valid ICU regular expression.
    init(_ source: String) throws(InvalidPattern) {
        do {
            expression = try NSRegularExpression(pattern: "^(?:" + source + ")$")
        } catch {
            throw InvalidPattern()
        }
        self.source = source
    }

    struct InvalidPattern: Error {}

    func matches(_ value: String) -> Bool {
        expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }

    static func == (lhs: ParameterPattern, rhs: ParameterPattern) -> Bool {
        lhs.source == rhs.source
    }
}
