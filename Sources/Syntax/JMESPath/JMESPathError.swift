/// Why an expression could not be compiled or evaluated, with the position (in Unicode scalars
/// from the expression's start) of the part at fault.
public struct JMESPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of error the JMESPath specification names; `rawValue` is the name its compliance suites use.
    public enum Kind: String, Sendable, Equatable {
        case syntax
        case unknownFunction = "unknown-function"
        case invalidArity = "invalid-arity"
        case invalidType = "invalid-type"
        case invalidValue = "invalid-value"
        case undefinedVariable = "undefined-variable"
        case notANumber = "not-a-number"
    }

    /// What kind of error it is.
    public let kind: Kind
    /// What went wrong, in a sentence fragment.
    public let message: String
    /// Where in the expression, counted in Unicode scalars from 0.
    public let position: Int

    /// An error of `kind` at `position`.
    public init(_ kind: Kind, _ message: String, at position: Int) {
        self.kind = kind
        self.message = message
        self.position = position
    }

    /// One line: the kind, the position (counted from 1 for people) and the message.
    public var description: String { "\(kind.rawValue) error at position \(position + 1): \(message)" }
}
