import ASCIISyntax
import HTTP1

/// The decoded fields of a query string (`application/x-www-form-urlencoded`: `+` is a space).
///
/// Order and repeated names are kept; a field without `=` has an empty value.
public struct QueryParameters: Sendable, Equatable {
    private var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    /// Decodes a raw query (or an `application/x-www-form-urlencoded` body, which has its
    /// syntax), or returns nil if it holds an invalid `%` escape, invalid UTF-8 or NUL.
    public init?(decoding query: String?) {
        guard let query, !query.isEmpty else {
            self.init([])
            return
        }
        var fields: [(name: String, value: String)] = []
        let utf8 = Substring(query).utf8
        var start = utf8.startIndex
        while start < utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            if start < end {
                let pair = utf8[start..<end]
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? end
                let valueStart = equals == end ? end : utf8.index(after: equals)
                guard let name = PercentDecoding.decode(utf8[start..<equals], plusAsSpace: true),
                    let value = PercentDecoding.decode(utf8[valueStart..<end], plusAsSpace: true)
                else { return nil }
                fields.append((name, value))
            }
            start = end == utf8.endIndex ? end : utf8.index(after: end)
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
