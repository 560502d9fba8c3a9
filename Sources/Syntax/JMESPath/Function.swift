/// The built-in functions: the specification's and the community edition's additions.
enum Function: String, Sendable {
    case abs, avg, ceil, contains, endsWith = "ends_with", floor, join, keys, length, map, max, maxBy = "max_by", merge, min
    case minBy = "min_by", notNull = "not_null", reverse, sort, sortBy = "sort_by", startsWith = "starts_with", sum
    case toArray = "to_array", toString = "to_string", toNumber = "to_number", type, values
    case findFirst = "find_first", findLast = "find_last", lower, upper, padLeft = "pad_left", padRight = "pad_right"
    case replace, split, trim, trimLeft = "trim_left", trimRight = "trim_right", groupBy = "group_by", items
    case fromItems = "from_items", zip

    /// The fewest and most arguments (nil: any number).
    private var arity: (minimum: Int, maximum: Int?) {
        switch self {
        case .abs, .avg, .ceil, .floor, .keys, .length, .max, .min, .reverse, .sort, .sum, .toArray, .toString, .toNumber, .type,
            .values, .lower, .upper, .items, .fromItems:
            (1, 1)
        case .contains, .endsWith, .startsWith, .join, .map, .maxBy, .minBy, .sortBy, .groupBy: (2, 2)
        case .merge, .notNull, .zip: (1, nil)
        case .findFirst, .findLast: (2, 4)
        case .padLeft, .padRight, .split: (2, 3)
        case .replace: (3, 4)
        case .trim, .trimLeft, .trimRight: (1, 2)
        }
    }

    func checkArity(_ count: Int, at position: Int) throws(JMESPathError) {
        let (minimum, maximum) = arity
        guard count < minimum || maximum.map({ count > $0 }) == true else { return }
        let expected = maximum == minimum ? "\(minimum)" : maximum.map { "\(minimum) to \($0)" } ?? "at least \(minimum)"
        throw JMESPathError(.invalidArity, "\(rawValue)() takes \(expected) argument\(expected == "1" ? "" : "s"), not \(count)", at: position)
    }

    /// Evaluates the arguments (an expression reference stays unevaluated) and applies the function.
    func call(_ arguments: [Node], on value: JMESPathValue, at position: Int, with interpreter: inout Interpreter)
        throws(JMESPathError) -> JMESPathValue
    {
        var call = Call(function: self, position: position, nodes: arguments, values: [])
        for argument in arguments {
            call.values.append(argument.isExpressionReference ? .null : try interpreter.evaluate(argument, value))
        }
        return try call.apply(with: &interpreter)
    }

    /// One call's arguments and its type checks.
    private struct Call {
        let function: Function
        let position: Int
        let nodes: [Node]
        var values: [JMESPathValue]

        private func fail(_ argument: Int, _ expected: String) -> JMESPathError {
            let found = argument < values.count ? values[argument].typeName : "nothing"
            return JMESPathError(.invalidType, "\(function.rawValue)() expects \(expected) as argument \(argument + 1), not \(found)", at: position)
        }

        private func invalid(_ message: String) -> JMESPathError {
            JMESPathError(.invalidValue, "\(function.rawValue)(): \(message)", at: position)
        }

        private func number(_ argument: Int) throws(JMESPathError) -> Double {
            guard case .number(let value) = values[argument] else { throw fail(argument, "a number") }
            return value
        }

        private func string(_ argument: Int) throws(JMESPathError) -> String {
            guard case .string(let value) = values[argument] else { throw fail(argument, "a string") }
            return value
        }

        private func array(_ argument: Int) throws(JMESPathError) -> [JMESPathValue] {
            guard case .array(let value) = values[argument] else { throw fail(argument, "an array") }
            return value
        }

        private func object(_ argument: Int) throws(JMESPathError) -> [(key: String, value: JMESPathValue)] {
            guard case .object(let value) = values[argument] else { throw fail(argument, "an object") }
            return value
        }

        private func numbers(_ argument: Int) throws(JMESPathError) -> [Double] {
            try array(argument).map { (element) throws(JMESPathError) -> Double in
                guard case .number(let value) = element else { throw fail(argument, "an array of numbers") }
                return value
            }
        }

        private func strings(_ argument: Int) throws(JMESPathError) -> [String] {
            try array(argument).map { (element) throws(JMESPathError) -> String in
                guard case .string(let value) = element else { throw fail(argument, "an array of strings") }
                return value
            }
        }

        private func reference(_ argument: Int) throws(JMESPathError) -> Node {
            guard case .expressionReference(let node) = nodes[argument].kind else { throw fail(argument, "an expression reference (&)") }
            return node
        }

        /// An optional non-negative integer argument.
        private func integer(_ argument: Int, _ name: String) throws(JMESPathError) -> Int? {
            guard argument < values.count else { return nil }
            let value = try number(argument)
            guard value == value.rounded(), value >= 0, value < 1e15 else { throw invalid("\(name) must be a non-negative integer") }
            return Int(value)
        }

        /// The widest string `pad_left` and `pad_right` make, and the most characters `replace` adds.
        static let maximumWidth = 1 << 20

        /// Numbers, or strings, sortable together; nil for an empty array.
        private enum Sortable { case numbers, strings }

        private func sortable(_ elements: [JMESPathValue], _ argument: Int, _ expected: String) throws(JMESPathError) -> Sortable? {
            guard let first = elements.first else { return nil }
            if case .number = first, elements.allSatisfy({ if case .number = $0 { true } else { false } }) { return .numbers }
            if case .string = first, elements.allSatisfy({ if case .string = $0 { true } else { false } }) { return .strings }
            throw JMESPathError(
                .invalidType, "\(function.rawValue)() expects \(expected), not a mix of \(Set(elements.map(\.typeName)).sorted())", at: position)
        }

        private static func precedes(_ a: JMESPathValue, _ b: JMESPathValue) -> Bool {
            Interpreter.compare(.less, a, b) == .bool(true)
        }

        /// The values of `node` over `elements`, checked to be all numbers or all strings.
        private func keys(_ elements: [JMESPathValue], _ node: Node, with interpreter: inout Interpreter) throws(JMESPathError) -> [JMESPathValue] {
            var keys: [JMESPathValue] = []
            for element in elements { keys.append(try interpreter.evaluate(node, element)) }
            _ = try sortable(keys, 1, "an expression giving all numbers or all strings")
            return keys
        }

        mutating func apply(with interpreter: inout Interpreter) throws(JMESPathError) -> JMESPathValue {
            switch function {
            case .abs: return .number(Swift.abs(try number(0)))
            case .ceil: return .number(try number(0).rounded(.up))
            case .floor: return .number(try number(0).rounded(.down))
            case .avg:
                let numbers = try numbers(0)
                return numbers.isEmpty ? .null : .number(numbers.reduce(0, +) / Double(numbers.count))
            case .sum: return .number(try numbers(0).reduce(0, +))
            case .contains:
                switch values[0] {
                case .array(let elements): return .bool(elements.contains(values[1]))
                case .string(let subject):
                    guard case .string(let search) = values[1] else { return .bool(false) }
                    return .bool(search.isEmpty || Text.find(Array(search.unicodeScalars), in: Array(subject.unicodeScalars), from: 0) != nil)
                default: throw fail(0, "an array or a string")
                }
            case .startsWith: return .bool(try string(0).unicodeScalars.starts(with: try string(1).unicodeScalars))
            case .endsWith:
                return .bool(try string(0).unicodeScalars.reversed().starts(with: try string(1).unicodeScalars.reversed()))
            case .join:
                let glue = try string(0)
                return .string(try strings(1).joined(separator: glue))
            case .keys: return .array(try object(0).map { .string($0.key) })
            case .values: return .array(try object(0).map(\.value))
            case .length:
                switch values[0] {
                case .string(let string): return .number(Double(string.unicodeScalars.count))
                case .array(let elements): return .number(Double(elements.count))
                case .object(let members): return .number(Double(members.count))
                default: throw fail(0, "a string, an array or an object")
                }
            case .map:
                let node = try reference(0)
                var results: [JMESPathValue] = []
                for element in try array(1) { results.append(try interpreter.evaluate(node, element)) }
                return .array(results)
            case .max, .min:
                let elements = try array(0)
                guard try sortable(elements, 0, "an array of numbers or of strings") != nil else { return .null }
                let best = function == .max ? elements.max(by: Call.precedes) : elements.min(by: Call.precedes)
                return best ?? .null
            case .maxBy, .minBy:
                let elements = try array(0)
                let keys = try keys(elements, try reference(1), with: &interpreter)
                let indices = Array(elements.indices)
                let best =
                    function == .maxBy
                    ? indices.max { Call.precedes(keys[$0], keys[$1]) } : indices.min { Call.precedes(keys[$0], keys[$1]) }
                return best.map { elements[$0] } ?? .null
            case .merge:
                var merged = Members<JMESPathValue>()
                for argument in values.indices {
                    for member in try object(argument) { merged.set(member.key, member.value) { $0 = $1 } }
                }
                return .object(merged.members)
            case .notNull: return values.first { $0 != .null } ?? .null
            case .reverse:
                switch values[0] {
                case .string(let string): return .string(String(String.UnicodeScalarView(string.unicodeScalars.reversed())))
                case .array(let elements): return .array(elements.reversed())
                default: throw fail(0, "an array or a string")
                }
            case .sort:
                let elements = try array(0)
                _ = try sortable(elements, 0, "an array of numbers or of strings")
                return .array(elements.sorted(by: Call.precedes))
            case .sortBy:
                let elements = try array(0)
                let keys = try keys(elements, try reference(1), with: &interpreter)
                return .array(Array(elements.indices).sorted { Call.precedes(keys[$0], keys[$1]) || (keys[$0] == keys[$1] && $0 < $1) }.map { elements[$0] })
            case .groupBy:
                let elements = try array(0)
                let node = try reference(1)
                var groups = Members<[JMESPathValue]>()
                for element in elements {
                    let key: String
                    switch try interpreter.evaluate(node, element) {
                    case .string(let string): key = string
                    case .null: continue
                    case let other:
                        throw JMESPathError(.invalidType, "group_by()'s expression must give strings, not \(other.typeName)", at: position)
                    }
                    groups.set(key, [element]) { $0 += $1 }
                }
                return .object(groups.members.map { ($0.key, .array($0.value)) })
            case .toArray:
                if case .array = values[0] { return values[0] }
                return .array([values[0]])
            case .toString:
                if case .string = values[0] { return values[0] }
                return .string(values[0].json)
            case .toNumber:
                switch values[0] {
                case .number: return values[0]
                case .string(let string):
                    guard let parsed = try? JMESPathValue(parsingJSON: Array(string.utf8)), case .number = parsed else { return .null }
                    return parsed
                default: return .null
                }
            case .type: return .string(values[0].typeName)
            case .items: return .array(try object(0).map { .array([.string($0.key), $0.value]) })
            case .fromItems:
                var members = Members<JMESPathValue>()
                for item in try array(0) {
                    guard case .array(let pair) = item, pair.count == 2, case .string(let key) = pair[0] else {
                        throw fail(0, "an array of [key, value] pairs with string keys")
                    }
                    members.set(key, pair[1]) { $0 = $1 }
                }
                return .object(members.members)
            case .zip:
                var arrays: [[JMESPathValue]] = []
                for argument in values.indices { arrays.append(try array(argument)) }
                let count = arrays.map(\.count).min() ?? 0
                return .array((0..<count).map { index in .array(arrays.map { $0[index] }) })
            case .lower, .upper:
                let scalars = try string(0).unicodeScalars.map { scalar -> Unicode.Scalar in
                    let isUpper = ("A"..."Z").contains(scalar), isLower = ("a"..."z").contains(scalar)
                    if function == .lower, isUpper { return Unicode.Scalar(scalar.value + 32)! }
                    if function == .upper, isLower { return Unicode.Scalar(scalar.value - 32)! }
                    return scalar
                }
                return .string(String(String.UnicodeScalarView(scalars)))
            case .findFirst, .findLast:
                let subject = Array(try string(0).unicodeScalars), search = Array(try string(1).unicodeScalars)
                for argument in 2..<values.count { _ = try number(argument) }
                let start = try integerOrClamp(2, count: subject.count) ?? 0
                let end = try integerOrClamp(3, count: subject.count) ?? subject.count
                guard !search.isEmpty, start <= end else { return .null }
                let window = Array(subject[Swift.min(start, subject.count)..<Swift.min(end, subject.count)])
                let found = function == .findFirst ? Text.find(search, in: window, from: 0) : Text.findLast(search, in: window)
                return found.map { .number(Double($0 + start)) } ?? .null
            case .padLeft, .padRight:
                let subject = try string(0)
                guard let width = try integer(1, "the width") else { return .null }
                // An upstream's number must not make the gateway allocate without bound.
                guard width <= Call.maximumWidth else { throw invalid("the width is at most \(Call.maximumWidth)") }
                let padding = values.count > 2 ? try string(2) : " "
                guard padding.unicodeScalars.count == 1, let pad = padding.unicodeScalars.first else {
                    throw invalid("the padding must be exactly one character")
                }
                let missing = Swift.max(0, width - subject.unicodeScalars.count)
                let fill = String(String.UnicodeScalarView(Array(repeating: pad, count: missing)))
                return .string(function == .padLeft ? fill + subject : subject + fill)
            case .replace:
                let subject = Array(try string(0).unicodeScalars), old = Array(try string(1).unicodeScalars)
                let new = Array(try string(2).unicodeScalars)
                let count = try integer(3, "the count")
                let replacements = Swift.min(count ?? Int.max, old.isEmpty ? subject.count + 1 : subject.count / old.count)
                guard replacements.multipliedReportingOverflow(by: new.count).partialValue <= Call.maximumWidth || new.count <= old.count else {
                    throw invalid("the result would be longer than \(Call.maximumWidth) characters")
                }
                return .string(String(String.UnicodeScalarView(Text.replace(old, with: new, in: subject, count: count))))
            case .split:
                let subject = Array(try string(0).unicodeScalars), separator = Array(try string(1).unicodeScalars)
                let count = try integer(2, "the count")
                return .array(Text.split(subject, by: separator, count: count).map { .string(String(String.UnicodeScalarView($0))) })
            case .trim, .trimLeft, .trimRight:
                let subject = Array(try string(0).unicodeScalars)
                let characters = values.count > 1 ? Array(try string(1).unicodeScalars) : []
                let trimmed =
                    characters.isEmpty
                    ? { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace } : { (scalar: Unicode.Scalar) in characters.contains(scalar) }
                var slice = subject[...]
                if function != .trimRight { slice = slice.drop(while: trimmed) }
                if function != .trimLeft { while let last = slice.last, trimmed(last) { slice = slice.dropLast() } }
                return .string(String(String.UnicodeScalarView(slice)))
            }
        }

        /// find_first's optional start and end: integers, negative ones counted from the end.
        private func integerOrClamp(_ argument: Int, count: Int) throws(JMESPathError) -> Int? {
            guard argument < values.count else { return nil }
            let value = try number(argument)
            guard value == value.rounded(), Swift.abs(value) < 1e15 else { throw invalid("positions must be integers") }
            let position = Int(value)
            return position < 0 ? Swift.max(0, count + position) : position
        }
    }
}

/// An object's members built in the order their keys first come, a key's later values combined
/// with its first: in linear time, however many members an answer brings, with keys told apart
/// by their bytes as JMESPath compares them (not by Swift's canonical equivalence).
struct Members<Value> {
    private(set) var members: [(key: String, value: Value)] = []
    private var positions: [[UInt8]: Int] = [:]

    mutating func set(_ key: String, _ value: Value, combining: (inout Value, Value) -> Void) {
        let bytes = Array(key.utf8)
        if let position = positions[bytes] {
            combining(&members[position].value, value)
        } else {
            positions[bytes] = members.count
            members.append((key, value))
        }
    }
}

/// String searches over Unicode scalars, which is how JMESPath counts characters.
enum Text {
    static func find(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    static func findLast(_ needle: [Unicode.Scalar], in haystack: [Unicode.Scalar]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = haystack.count - needle.count
        while index >= 0 {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }

    static func replace(_ old: [Unicode.Scalar], with new: [Unicode.Scalar], in subject: [Unicode.Scalar], count: Int?) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        var index = 0, replaced = 0
        while index <= subject.count {
            if count.map({ replaced < $0 }) ?? true,
                old.isEmpty || (index + old.count <= subject.count && subject[index..<index + old.count].elementsEqual(old))
            {
                result.append(contentsOf: new)
                replaced += 1
                if old.isEmpty {
                    if index < subject.count { result.append(subject[index]) }
                    index += 1
                } else {
                    index += old.count
                }
                continue
            }
            if index < subject.count { result.append(subject[index]) }
            index += 1
        }
        return result
    }

    static func split(_ subject: [Unicode.Scalar], by separator: [Unicode.Scalar], count: Int?) -> [[Unicode.Scalar]] {
        if count == 0 { return [subject] }
        if separator.isEmpty {
            guard let count, count < subject.count else { return subject.map { [$0] } }
            return subject[..<count].map { [$0] } + [Array(subject[count...])]
        }
        var parts: [[Unicode.Scalar]] = []
        var start = 0
        while count.map({ parts.count < $0 }) ?? true, let found = find(separator, in: subject, from: start) {
            parts.append(Array(subject[start..<found]))
            start = found + separator.count
        }
        parts.append(Array(subject[start...]))
        return parts
    }
}
