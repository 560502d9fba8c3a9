/// The custom request header every API request on a session must carry (`X-CSRF: 1` by default).
///
/// A cross-site form or image cannot send a custom header, and a cross-site `fetch` that sets one needs
/// a CORS preflight the gateway's CORS policy refuses to other origins; so its presence proves the
/// request came from a page of an allowed origin. Checked on every API request on a session, not only
/// unsafe methods (Duende's advisory GHSA-4j63-5v5f-xcc4 came from skipping it).
public struct CSRFHeader: Sendable, Equatable {
    /// The field name, lower-cased, as requests are matched.
    public let name: String
    /// The value it must have.
    public let value: String

    /// A header named `name` that must equal `value`; nil when either is empty or holds a character a
    /// field name or value may not (RFC 9110 §5.1, §5.5).
    public init?(name: String = "X-CSRF", value: String = "1") {
        guard !name.isEmpty, !value.isEmpty,
            name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }),
            value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        self.name = name.lowercased()
        self.value = value
    }

    /// Whether a request whose values of the field are `values` passes: exactly one value, equal to `value`.
    public func isSatisfied<Values: Collection<String>>(by values: Values) -> Bool {
        values.count == 1 && values.first == value
    }
}
