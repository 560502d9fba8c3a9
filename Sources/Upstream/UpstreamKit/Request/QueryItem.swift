/// One `name=value` pair of a request's query; both sides are percent-encoded when the target is built.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Appends `?name=value&…` for `items` to `target`, or `&name=value…` when it has a query already.
    static func append(_ items: [QueryItem], to target: inout [UInt8]) {
        var hasQuery = target.contains(UInt8(ascii: "?"))
        for item in items {
            target.append(hasQuery ? UInt8(ascii: "&") : UInt8(ascii: "?"))
            hasQuery = true
            PercentEncoding.append(item.name, to: &target)
            target.append(UInt8(ascii: "="))
            PercentEncoding.append(item.value, to: &target)
        }
    }
}
