import Glibc
public import JSONCoding
/// A JSON value as JMESPath sees it: numbers are doubles, and objects keep their members in the
/// order they were read (JMESPath compares objects without regard to order).
public enum JMESPathValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JMESPathValue])
    case object([(key: String, value: JMESPathValue)])

    /// Parses one JSON document (strict RFC 8259, nesting bounded by the decoder's limit).
    ///
    /// - Throws: the decoder's error, with the byte offset of the fault.
    public init(parsingJSON bytes: [UInt8]) throws(JSONDecodingError) {
        self = try JSONReader.read(bytes) { document in JMESPathValue(document.root, in: document) }
    }

    /// The value at `value` of a document read with a depth limit, which bounds this recursion.
    package init(_ value: JSONReader.Value, in document: JSONReader) {
        switch document.kind(of: value) {
        case .null: self = .null
        case .bool: self = .bool(document.bool(value) ?? false)
        case .string: self = .string(document.string(value) ?? "")
        case .number: self = .number(Double(document.numberText(value) ?? "") ?? 0)
        case .array:
            var elements: [JMESPathValue] = []
            elements.reserveCapacity(document.count(of: value))
            document.forEachElement(of: value) { elements.append(JMESPathValue($0, in: document)) }
            self = .array(elements)
        case .object:
            self = .object(document.members(of: value).map { ($0.key, JMESPathValue($0.value, in: document)) })
        }
    }

    /// The value as compact JSON text; a number without a fraction is written as an integer.
    public var json: String {
        var bytes: [UInt8] = []
        appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value as compact JSON.
    public func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): bytes.append(contentsOf: JMESPathValue.text(of: value).utf8)
        case .string(let value): JSONString.append(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONString.append(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func text(of number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    /// The member `key` of an object; nil for another type or a missing member.
    public subscript(key: String) -> JMESPathValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { JMESPathValue.same($0.key, key) }?.value
    }

    /// Strings are equal when their Unicode scalars are: JMESPath does not normalise (`"é"` is
    /// not `"e\u{301}"`), unlike Swift's `==`.
    static func same(_ left: String, _ right: String) -> Bool {
        // Over the contiguous bytes, which every native string has: the generic comparison of
        // two UTF-8 views costs several times more.
        guard left.utf8.count == right.utf8.count else { return false }
        let compared = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                leftBytes.isEmpty || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
            }
        }
        return (compared ?? nil) ?? left.utf8.elementsEqual(right.utf8)
    }

    /// JMESPath's truth: false, null, and empty strings, arrays and objects are false.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number: true
        case .string(let value): !value.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object(let members): !members.isEmpty
        }
    }

    /// The name `type()` answers.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Deep equality; objects are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: JMESPathValue, rhs: JMESPathValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.number(let left), .number(let right)): return left == right
        case (.string(let left), .string(let right)): return same(left, right)
        case (.array(let left), .array(let right)): return left == right
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            return left.allSatisfy { member in rhs[member.key].map { $0 == member.value } ?? false }
        default: return false
        }
    }
}
