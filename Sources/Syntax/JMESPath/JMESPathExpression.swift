/// A JMESPath expression (community edition), compiled once and evaluated many times.
///
/// ```swift
/// let expression = try JMESPathExpression("items[?stars > `3`].text | join(', ', @)")
/// let document = try JMESPathValue(parsingJSON: Array(#"{"items": [{"stars": 4, "text": "Lovely"}]}"#.utf8))
/// let answer = try expression.evaluate(on: document)   // "Lovely"
/// ```
public struct JMESPathExpression: Sendable, CustomStringConvertible {
    /// The expression's text.
    public let text: String
    private let tree: Node

    /// Compiles `text`.
    ///
    /// - Parameter allowsLegacyLiterals: accept the original specification's deprecated literals
    ///   that are not JSON as strings (`` `foo` `` for `"foo"`), which the community edition's
    ///   JEP-12 refuses.
    /// - Throws: a syntax, unknown-function, invalid-arity or undefined-variable error naming the position.
    public init(_ text: String, allowsLegacyLiterals: Bool = false) throws(JMESPathError) {
        self.text = text
        tree = try Parser.parse(text, allowsLegacyLiterals: allowsLegacyLiterals)
    }

    /// The result of the expression on `document`, which is also `$`.
    ///
    /// - Throws: a run-time error: invalid-type (a function or operator given the wrong type),
    ///   invalid-value or not-a-number.
    public func evaluate(on document: JMESPathValue) throws(JMESPathError) -> JMESPathValue {
        var interpreter = Interpreter(root: document)
        return try interpreter.evaluate(tree, document)
    }

    /// The names of the members the expression reads from the document (`catalog` and `reviews`
    /// in `catalog.name || reviews[0]`, with `$.name` too); nil when it may read any member (`@`
    /// or `$` alone, `*` or `keys(@)` on the document), so a caller can check the names it
    /// offers before evaluating.
    public var documentFields: Set<String>? { tree.documentFields(isDocument: true) }

    public var description: String { text }
}
