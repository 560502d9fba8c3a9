import JMESPath

/// `gateway --jmespath EXPRESSION`: what an operator tries an endpoints file's expression with,
/// on a saved upstream answer, and what the compliance suites run through.
enum JMESPathCommand {
    /// The result of `expression` on the JSON document `input`, as one line of JSON, or the error's
    /// line (flagged) when the expression does not compile, the input is not JSON, or evaluation fails.
    static func evaluate(_ expression: String, on input: [UInt8], allowsLegacyLiterals: Bool) -> (line: String, isError: Bool) {
        let compiled: JMESPathExpression
        do {
            compiled = try JMESPathExpression(expression, allowsLegacyLiterals: allowsLegacyLiterals)
        } catch {
            return ("gateway --jmespath: \(error)", true)
        }
        let document: JMESPathValue
        do {
            document = try JMESPathValue(parsingJSON: input)
        } catch {
            return ("gateway --jmespath: the input is not one JSON document: \(error)", true)
        }
        do {
            return (try compiled.evaluate(on: document).json, false)
        } catch {
            return ("gateway --jmespath: \(error)", true)
        }
    }
}
