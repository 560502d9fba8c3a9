/// The decoded fields of a query string (`application/x-www-form-urlencoded`: `+` is a space).
///
/// Order and repeated names are kept; a field without `=` has an empty value.
public struct QueryParameters: Sendable, Equatable {
    private var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    /// Decodes a raw query, or returns nil if it holds an invalid `%` escape, invalid UTF-8 or NUL.
    init?(decoding query: String?) {
        guard let query, !query.isEmpty else {
            self.init([])
            return
        }
        var fields: [(name: String, value: String)] = []
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let valueStart = equals == pair.endIndex ? equals : pair.index(after: equals)
            guard let name = PercentDecoding.decode(pair[..<equals], plusAsSpace: true),
                let value = PercentDecoding.decode(pair[valueStart...], plusAsSpace: true)
            else { return nil }
            fields.append((name, value))
        }
        self.init(fields)
    }

    /// The value of the first field named `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The values of every field named `name`, in order.
    public func values(named name: String) -> [String] {
        fields.compactMap { $0.name == name ? $0.value : nil }
    }

    public var isEmpty: Bool { fields.isEmpty }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
    }
}
