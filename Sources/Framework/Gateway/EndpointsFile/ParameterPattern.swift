import Foundation

/// A regular expression a text parameter must match as a whole, compiled once at start-up.
struct ParameterPattern: Sendable, Equatable {
    /// The expression as declared, for OpenAPI and error details.
    let source: String
    private let expression: NSRegularExpression

    /// - Throws: `InvalidPattern` when `source` is not a valid ICU regular expression.
    init(_ source: String) throws(InvalidPattern) {
        do {
            // Compiled alone first, so that a `)` closing the group below cannot take part of
            // the expression out of the anchors. `\z`, unlike `$`, does not match before a
            // final line terminator (such as U+2028, which a parameter may hold).
            _ = try NSRegularExpression(pattern: source)
            expression = try NSRegularExpression(pattern: #"\A(?:"# + source + #")\z"#)
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
