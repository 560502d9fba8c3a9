/// An ordered list of header fields with case-insensitive name lookup (RFC 9110 §5.1).
///
/// Order and repeated names are kept, because `Set-Cookie` may not be folded into one line.
public struct HTTPHeaders: Sendable, Equatable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One header field, its name spelled as it was written.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Whether the name is a token and the value field-value bytes (no CR, LF, NUL or other
        /// control but HTAB): what keeps a field from splitting the message it is written into.
        @inlinable
        package var hasValidSyntax: Bool {
            FieldSyntax.isToken(name) && FieldSyntax.isFieldValue(value)
        }
    }

    @usableFromInline var fields: [Field]
    /// How many of the first fields passed `checkSyntax()`. Fields change only through this
    /// type's methods, and those that remove a field lower it, so it never counts a field that
    /// was not checked.
    @usableFromInline var checkedCount = 0

    public init() {
        fields = []
    }

    public init(_ fields: [Field]) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = []
        // A literal's fields are most often the start of a request's, which its sender joins with
        // its own (identification, request id, trace context): room for those, in one allocation.
        guard !elements.isEmpty else { return }
        fields.reserveCapacity(elements.count + 4)
        for (name, value) in elements { fields.append(Field(name: name, value: value)) }
    }

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> Field { fields[position] }

    /// The value of the first field named `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The values of every field named `name`, in order.
    public func values(named name: String) -> [String] {
        fields.compactMap { $0.name.equalsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// Whether any field is named `name`.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Appends a field, keeping any earlier ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Appends `field`, which its caller checked when it made it (a configured or generated
    /// value): it counts as checked (see `checkSyntax()`) when every field before it does.
    @inlinable
    package mutating func add(checked field: Field) {
        assert(field.hasValidSyntax, "an unchecked field added as checked")
        if checkedCount == fields.count { checkedCount += 1 }
        fields.append(field)
    }

    /// Replaces every field named `name` with one field holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        guard let first = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) else { return }
        // The fields before the first removed one keep their places, and stay checked.
        checkedCount = Swift.min(checkedCount, first)
        fields[first...].removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Checks each field not checked before against HTTP's field syntax (`Field.hasValidSyntax`),
    /// and remembers those that pass, so that a request's fields are checked once however many
    /// layers check them (a typed request, then the head writer). Returns the first field that
    /// fails, or nil when all pass.
    package mutating func checkSyntax() -> Field? {
        while checkedCount < fields.count {
            guard fields[checkedCount].hasValidSyntax else { return fields[checkedCount] }
            checkedCount += 1
        }
        return nil
    }

    /// Whether the field at `index` passed `checkSyntax()`.
    @inlinable
    package func isChecked(_ index: Int) -> Bool {
        index < checkedCount
    }

    /// Equal when the same fields stand in the same order, whichever were checked.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields == rhs.fields
    }

    /// Makes room for `count` fields, for writers that know how many they will add.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }
}
