import JMESPath

/// A template member computed by a JMESPath expression (community edition) over the endpoint's
/// context, written `{"$jmespath": "catalog.price_cents / `100`"}`: an object whose only member
/// is `$jmespath`, which no `{reference}` string can be mistaken for. The expression reads the
/// endpoint's parameters, its calls' decoded answers and `auth` (the caller's token's claims)
/// by name; it is compiled once, when the file is read.
struct TemplateExpression: Sendable {
    /// The member that marks an expression.
    static let key = "$jmespath"

    /// What one name the expression reads stands for.
    enum Input: Sendable {
        case parameter(Int)
        case call(Int)
        case claims
    }

    let expression: JMESPathExpression
    /// Where the template holds it (`rating`, `items[0].total`), for errors.
    let place: String
    /// The names the expression reads, each with its source.
    let inputs: [(name: String, input: Input)]

    /// The calls whose answers it reads: the template is written after them.
    var calls: [Int] {
        inputs.compactMap { if case .call(let index) = $0.input { index } else { nil } }
    }

    /// The expression's text when `value` is `{"$jmespath": "…"}`; nil for any other value.
    ///
    /// - Throws: for an object that names `$jmespath` with other members or a value that is not a string.
    static func text(of value: JSONValue) throws(EndpointsFileError) -> String? {
        guard case .object(let members) = value, members.contains(where: { $0.0 == key }) else { return nil }
        guard members.count == 1, case .string(let text) = members[0].1 else {
            throw EndpointsFileError("{\"\(key)\": …} takes one string, the expression, and no other member")
        }
        return text
    }

    /// Whether `value` is an expression member (or malformed as one, which compiling reports).
    static func isExpression(_ value: JSONValue) -> Bool {
        if case .object(let members) = value { members.contains { $0.0 == key } } else { false }
    }

    /// The value of the expression for one request; `null` when a call it reads has no answer
    /// (an optional call that failed, or one skipped).
    func evaluate(_ values: TemplateValues) throws(JMESPathError) -> JMESPathValue {
        var context: [(key: String, value: JMESPathValue)] = []
        context.reserveCapacity(inputs.count)
        for (name, input) in inputs {
            switch input {
            case .parameter(let index):
                context.append((name, (try? JMESPathValue(parsingJSON: Array(values.parameters.json(at: index)))) ?? .null))
            case .call(let index):
                guard let answer = values.calls[index]?.document else { return .null }
                context.append((name, answer))
            case .claims:
                context.append((name, values.claimsDocument))
            }
        }
        return try expression.evaluate(on: .object(context))
    }
}
