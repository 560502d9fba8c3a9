import HTTP1Server
import JMESPath
import JSONCoding

/// A JSON template compiled into the bytes it writes: literal runs (punctuation, keys and
/// constants, already encoded) between the values of its references, so a response is a
/// sequence of copies.
///
/// A string that is exactly one `{reference}` becomes that value as JSON (any type); a string
/// with references inside text becomes a string with their text put in; `{"$jmespath": "…"}`
/// becomes the value of that expression (`TemplateExpression`).
struct JSONTemplate: Sendable {
    enum Segment: Sendable {
        case literal([UInt8])
        case value(ValueSlot)
        case text(TextTemplate)
        /// The index of an expression in `expressions`.
        case expression(Int)
    }

    /// Why an expression of the template failed for one request.
    struct ExpressionFailure: Error {
        /// Where the template holds it (`rating`).
        let place: String
        let error: JMESPathError
    }

    let segments: [Segment]
    let expressions: [TemplateExpression]
    /// Whether the template is an object; its closing brace is then left out of `segments`, so
    /// `degraded` can be appended before it.
    let isObject: Bool
    let isEmptyObject: Bool

    init(_ template: JSONValue, references: inout ReferenceTable) throws(EndpointsFileError) {
        var builder = Builder()
        try builder.add(template, at: "", references: &references)
        expressions = builder.expressions
        if case .object(let members) = template {
            isObject = true
            isEmptyObject = members.isEmpty
            builder.dropLastByte()
        } else {
            isObject = false
            isEmptyObject = false
        }
        segments = builder.finish()
    }

    /// Every slot the template reads.
    var slots: [ValueSlot] {
        segments.flatMap { segment -> [ValueSlot] in
            switch segment {
            case .literal: []
            case .value(let slot): [slot]
            case .text(let text): text.slots
            case .expression: []
            }
        }
    }

    /// The calls the template's expressions read.
    var calls: [Int] {
        var calls: [Int] = []
        for call in expressions.flatMap(\.calls) where !calls.contains(call) { calls.append(call) }
        return calls
    }

    /// The values of the template's expressions for one request, in order.
    ///
    /// - Throws: the first expression that fails (a function or operator given the wrong type).
    func evaluate(_ values: TemplateValues) throws(ExpressionFailure) -> [JMESPathValue] {
        guard !expressions.isEmpty else { return [] }
        var results: [JMESPathValue] = []
        results.reserveCapacity(expressions.count)
        for expression in expressions {
            do {
                results.append(try expression.evaluate(values))
            } catch {
                throw ExpressionFailure(place: expression.place, error: error)
            }
        }
        return results
    }

    /// Writes the template with `values` put in, and `computed`, what `evaluate` gave for them; an
    /// object gets `"degraded": [...]` last when `degraded` is given.
    func write(_ values: TemplateValues, computed: [JMESPathValue] = [], degraded: [String]? = nil, to bytes: inout [UInt8]) {
        for segment in segments {
            switch segment {
            case .literal(let literal): bytes.append(contentsOf: literal)
            case .value(let slot): values.appendJSON(slot, to: &bytes)
            case .text(let text): JSONString.append(text.render(values), to: &bytes)
            case .expression(let index): computed[index].appendJSON(to: &bytes)
            }
        }
        guard isObject else { return }
        if let degraded {
            bytes.append(contentsOf: (isEmptyObject ? #""degraded":["# : #","degraded":["#).utf8)
            for (index, part) in degraded.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONString.append(part, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private struct Builder {
        private var segments: [Segment] = []
        /// The literal run being built, kept apart from `segments` so that appending to it never
        /// copies it (a template may be most of a megabyte of constants).
        private var pending: [UInt8] = []
        private(set) var expressions: [TemplateExpression] = []

        mutating func literal(_ bytes: some Sequence<UInt8>) {
            pending.append(contentsOf: bytes)
        }

        mutating func dropLastByte() {
            if !pending.isEmpty { pending.removeLast() }
        }

        mutating func append(_ segment: Segment) {
            flush()
            segments.append(segment)
        }

        mutating func finish() -> [Segment] {
            flush()
            return segments
        }

        private mutating func flush() {
            guard !pending.isEmpty else { return }
            segments.append(.literal(pending))
            pending = []
        }

        /// The file's nesting is limited when it is read, so this recursion is bounded.
        mutating func add(_ value: JSONValue, at place: String, references: inout ReferenceTable) throws(EndpointsFileError) {
            if let text = try TemplateExpression.text(of: value) {
                expressions.append(try references.expression(text, at: place.isEmpty ? "top level" : place))
                append(.expression(expressions.count - 1))
                return
            }
            switch value {
            case .string(let string):
                let pieces = try TextTemplate.pieces(of: string)
                if pieces.count == 1, case .reference(let reference) = pieces[0] {
                    append(.value(try references.slot(for: reference, asText: false)))
                } else if pieces.contains(where: { if case .reference = $0 { true } else { false } }) {
                    append(.text(try TextTemplate(parsing: string, references: &references)))
                } else {
                    // Without references, the text is one literal piece (or none when empty).
                    var bytes: [UInt8] = []
                    var text = ""
                    if case .literal(let literal) = pieces.first { text = literal }
                    JSONString.append(text, to: &bytes)
                    literal(bytes)
                }
            case .array(let elements):
                literal([UInt8(ascii: "[")])
                for (index, element) in elements.enumerated() {
                    if index > 0 { literal([UInt8(ascii: ",")]) }
                    try add(element, at: "\(place)[\(index)]", references: &references)
                }
                literal([UInt8(ascii: "]")])
            case .object(let members):
                literal([UInt8(ascii: "{")])
                for (index, (key, member)) in members.enumerated() {
                    var bytes: [UInt8] = index > 0 ? [UInt8(ascii: ",")] : []
                    JSONString.append(key, to: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    literal(bytes)
                    try add(member, at: place.isEmpty ? key : place + "." + key, references: &references)
                }
                literal([UInt8(ascii: "}")])
            case .null, .bool, .integer, .number:
                literal(value.encoded)
            }
        }
    }
}
