/// Evaluates a `Node` tree against a document: the data of one evaluation (the root, the
/// variables `let` bound) travels in this value.
struct Interpreter {
    let root: JMESPathValue
    /// The `let` bindings in scope, innermost last.
    private var variables: [(name: String, value: JMESPathValue)] = []

    init(root: JMESPathValue) {
        self.root = root
    }

    mutating func evaluate(_ node: Node, _ value: JMESPathValue) throws(JMESPathError) -> JMESPathValue {
        switch node.kind {
        case .current: return value
        case .root: return root
        case .literal(let literal): return literal
        case .field(let name): return value[name] ?? .null
        case .variable(let name):
            guard let binding = variables.last(where: { $0.name == name }) else {
                throw JMESPathError(.undefinedVariable, "the variable $\(name) is not bound", at: node.position)
            }
            return binding.value
        case .subexpression(let left, let right):
            let first = try evaluate(left, value)
            return first == .null ? .null : try evaluate(right, first)
        case .pipe(let left, let right): return try evaluate(right, try evaluate(left, value))
        case .index(let index):
            guard case .array(let elements) = value else { return .null }
            let position = index < 0 ? elements.count + index : index
            return elements.indices.contains(position) ? elements[position] : .null
        case .slice(let start, let stop, let step):
            switch value {
            case .array(let elements): return .array(Interpreter.slice(elements, start, stop, step ?? 1))
            case .string(let string):
                return .string(String(String.UnicodeScalarView(Interpreter.slice(Array(string.unicodeScalars), start, stop, step ?? 1))))
            default: return .null
            }
        case .projection(let left, let right):
            switch try evaluate(left, value) {
            case .array(let elements): return try project(elements, right)
            // Only a slice of a string gives a string here; what follows applies to the whole slice.
            case .string(let string) where left.isSlice: return try evaluate(right, .string(string))
            default: return .null
            }
        case .valueProjection(let left, let right):
            guard case .object(let members) = try evaluate(left, value) else { return .null }
            return try project(members.map(\.value), right)
        case .filterProjection(let left, let right, let condition):
            guard case .array(let elements) = try evaluate(left, value) else { return .null }
            var kept: [JMESPathValue] = []
            for element in elements where try evaluate(condition, element).isTruthy { kept.append(element) }
            return try project(kept, right)
        case .flatten(let inner):
            guard case .array(let elements) = try evaluate(inner, value) else { return .null }
            var flattened: [JMESPathValue] = []
            for element in elements {
                if case .array(let nested) = element { flattened.append(contentsOf: nested) } else { flattened.append(element) }
            }
            return .array(flattened)
        case .or(let left, let right):
            let first = try evaluate(left, value)
            return first.isTruthy ? first : try evaluate(right, value)
        case .and(let left, let right):
            let first = try evaluate(left, value)
            return first.isTruthy ? try evaluate(right, value) : first
        case .not(let inner): return .bool(!(try evaluate(inner, value).isTruthy))
        case .comparison(let comparison, let left, let right):
            return Interpreter.compare(comparison, try evaluate(left, value), try evaluate(right, value))
        case .arithmetic(let operation, let left, let right):
            return try arithmetic(operation, try evaluate(left, value), try evaluate(right, value), at: node.position)
        case .negate(let inner):
            return .number(-(try number(try evaluate(inner, value), for: "-", at: node.position)))
        case .unaryPlus(let inner):
            return .number(try number(try evaluate(inner, value), for: "+", at: node.position))
        case .multiSelectList(let elements):
            var results: [JMESPathValue] = []
            results.reserveCapacity(elements.count)
            for element in elements { results.append(try evaluate(element, value)) }
            return .array(results)
        case .multiSelectHash(let members):
            var results: [(key: String, value: JMESPathValue)] = []
            results.reserveCapacity(members.count)
            for member in members { results.append((member.key, try evaluate(member.value, value))) }
            return .object(results)
        case .function(let function, let arguments):
            return try function.call(arguments, on: value, at: node.position, with: &self)
        case .expressionReference:
            throw JMESPathError(.invalidType, "an expression reference (&) is only an argument of a function", at: node.position)
        case .ternary(let condition, let then, let otherwise):
            return try evaluate(try evaluate(condition, value).isTruthy ? then : otherwise, value)
        case .letBindings(let bindings, let body):
            var bound: [(name: String, value: JMESPathValue)] = []
            for binding in bindings { bound.append((binding.name, try evaluate(binding.value, value))) }
            let count = variables.count
            variables.append(contentsOf: bound)
            defer { variables.removeSubrange(count...) }
            return try evaluate(body, value)
        }
    }

    private mutating func project(_ elements: [JMESPathValue], _ right: Node) throws(JMESPathError) -> JMESPathValue {
        var results: [JMESPathValue] = []
        results.reserveCapacity(elements.count)
        for element in elements {
            let result = try evaluate(right, element)
            if result != .null { results.append(result) }
        }
        return .array(results)
    }

    /// Python's slice rules, which the specification adopts.
    static func slice<Element>(_ elements: [Element], _ start: Int?, _ stop: Int?, _ step: Int) -> [Element] {
        let count = elements.count
        func clamp(_ value: Int?, _ default: Int) -> Int {
            guard let value else { return `default` }
            if value < 0 { return max(value + count, step < 0 ? -1 : 0) }
            return min(value, step < 0 ? count - 1 : count)
        }
        let first = clamp(start, step < 0 ? count - 1 : 0)
        let last = clamp(stop, step < 0 ? -1 : count)
        var result: [Element] = []
        var index = first
        while step > 0 ? index < last : index > last {
            result.append(elements[index])
            index += step
        }
        return result
    }

    static func compare(_ comparison: Node.Comparison, _ left: JMESPathValue, _ right: JMESPathValue) -> JMESPathValue {
        switch comparison {
        case .equal: return .bool(left == right)
        case .notEqual: return .bool(left != right)
        default: break
        }
        let order: Bool
        switch (left, right) {
        case (.number(let a), .number(let b)):
            switch comparison {
            case .less: order = a < b
            case .lessOrEqual: order = a <= b
            case .greater: order = a > b
            default: order = a >= b
            }
        case (.string(let a), .string(let b)):
            let a = Array(a.unicodeScalars.map(\.value)), b = Array(b.unicodeScalars.map(\.value))
            switch comparison {
            case .less: order = a.lexicographicallyPrecedes(b)
            case .lessOrEqual: order = !b.lexicographicallyPrecedes(a)
            case .greater: order = b.lexicographicallyPrecedes(a)
            default: order = !a.lexicographicallyPrecedes(b)
            }
        default: return .null
        }
        return .bool(order)
    }

    private func number(_ value: JMESPathValue, for operation: String, at position: Int) throws(JMESPathError) -> Double {
        guard case .number(let number) = value else {
            throw JMESPathError(.invalidType, "'\(operation)' needs numbers, not \(value.typeName)", at: position)
        }
        return number
    }

    private func arithmetic(_ operation: Node.Arithmetic, _ left: JMESPathValue, _ right: JMESPathValue, at position: Int)
        throws(JMESPathError) -> JMESPathValue
    {
        let symbol =
            switch operation {
            case .add: "+"
            case .subtract: "-"
            case .multiply: "*"
            case .divide: "/"
            case .modulo: "%"
            case .integerDivide: "//"
            }
        let a = try number(left, for: symbol, at: position), b = try number(right, for: symbol, at: position)
        let result: Double
        switch operation {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide, .modulo, .integerDivide:
            guard b != 0 else { throw JMESPathError(.notANumber, "division by zero", at: position) }
            switch operation {
            case .divide: result = a / b
            case .modulo: result = a - b * (a / b).rounded(.down)
            default: result = (a / b).rounded(.down)
            }
        }
        guard result.isFinite else { throw JMESPathError(.notANumber, "the result of '\(symbol)' is not a finite number", at: position) }
        return .number(result)
    }
}
