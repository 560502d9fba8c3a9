import HTTPBasics

/// The directives of a message's `Cache-Control` fields (RFC 9111 §5.2), request and response ones alike.
///
/// Every field line is read, names in any case, values as tokens or quoted strings. A directive
/// given twice keeps its first value (§4.2.1). A delta-seconds value that is not one (negative,
/// fractional, not a number) reads as 0, which makes the answer stale, as §1.2.2 advises; a huge
/// one is capped at 2^31 seconds.
public struct CacheControl: Sendable, Equatable {
    public var maxAge: Int?
    public var sharedMaxAge: Int?
    public var staleWhileRevalidate: Int?
    public var staleIfError: Int?
    /// `max-stale` in a request: how stale an answer the client accepts; `Int.max` when it gives no value.
    public var maxStale: Int?
    /// `min-fresh` in a request: how much freshness must be left.
    public var minFresh: Int?
    public var noStore = false
    /// `no-cache`, with or without field names (a qualified one is treated as unqualified).
    public var noCache = false
    /// `private`, with or without field names (a shared cache never stores either).
    public var isPrivate = false
    public var isPublic = false
    public var mustRevalidate = false
    public var proxyRevalidate = false
    public var mustUnderstand = false
    public var onlyIfCached = false

    /// The largest delta-seconds kept (RFC 9111 §1.2.2).
    static let largestDelta = 1 << 31

    public init() {}

    /// The directives of every `Cache-Control` field of `headers`.
    public init(_ headers: HTTPHeaders) {
        for field in headers where field.name.equalsIgnoringASCIICase("Cache-Control") {
            for directive in Self.directives(in: field.value) {
                apply(name: directive.name, value: directive.value)
            }
        }
    }

    private mutating func apply(name: Substring, value: Substring?) {
        switch name.lowercased() {
        case "max-age": maxAge = maxAge ?? Self.delta(value)
        case "s-maxage": sharedMaxAge = sharedMaxAge ?? Self.delta(value)
        case "stale-while-revalidate": staleWhileRevalidate = staleWhileRevalidate ?? Self.delta(value)
        case "stale-if-error": staleIfError = staleIfError ?? Self.delta(value)
        case "max-stale": maxStale = maxStale ?? (value == nil ? Int.max : Self.delta(value))
        case "min-fresh": minFresh = minFresh ?? Self.delta(value)
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "must-understand": mustUnderstand = true
        case "only-if-cached": onlyIfCached = true
        default: break
        }
    }

    /// A delta-seconds value: digits only; anything else is 0, so that the answer is stale.
    static func delta(_ value: Substring?) -> Int {
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return 0 }
        let digits = value.drop { $0 == "0" }
        guard digits.utf8.count <= 10, let number = Int(digits.isEmpty ? "0" : digits) else { return largestDelta }
        return min(number, largestDelta)
    }

    /// The `name[=value]` directives of one field value, split at commas outside quoted strings;
    /// a quoted value comes back unquoted.
    static func directives(in value: String) -> [(name: Substring, value: Substring?)] {
        var result: [(name: Substring, value: Substring?)] = []
        var rest = Substring(value)
        while !rest.isEmpty {
            var end = rest.startIndex
            var quoted = false
            while end < rest.endIndex {
                let character = rest[end]
                if character == "\"" { quoted.toggle() }
                if character == "\\" && quoted, rest.index(after: end) < rest.endIndex { end = rest.index(after: end) }
                if character == "," && !quoted { break }
                end = rest.index(after: end)
            }
            let item = rest[..<end].trimmingWhitespace
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[rest.endIndex...]
            guard !item.isEmpty else { continue }
            guard let equals = item.firstIndex(of: "=") else {
                result.append((item, nil))
                continue
            }
            var argument = item[item.index(after: equals)...].trimmingWhitespace
            if argument.count >= 2, argument.first == "\"", argument.last == "\"" {
                argument = argument.dropFirst().dropLast()
            }
            result.append((item[..<equals].trimmingWhitespace, argument))
        }
        return result
    }
}
