import HTTPBasics

/// What a request's `Accept-Encoding` says of the two codings a server here can send: `gzip` and
/// none (`identity`), by the rules of RFC 9110 §12.5.3.
///
/// Each member is a coding (case-insensitive; `x-gzip` is `gzip`, §8.4.1.3), `identity` or `*`,
/// with an optional weight `;q=` from 0 to 1 in thousandths, where 0 refuses. A named coding's
/// weight overrides `*`'s; a coding named twice keeps its lower weight, so no member undoes a
/// refusal; a member that breaks the grammar (a bad weight, another parameter) is ignored. An
/// empty field accepts no coding; no field at all is the caller's case (servers send identity).
///
/// ```swift
/// let accepted = AcceptEncoding("gzip;q=1.0, identity; q=0.5, *;q=0")
/// accepted.prefersGzip        // true
/// accepted.refusesIdentity    // false
/// ```
public struct AcceptEncoding: Sendable, Equatable {
    /// The weight of `gzip` in thousandths (0 refuses it), from its own member or else `*`'s.
    public let gzipWeight: Int
    /// The weight of `identity` in thousandths, from its own member or else `*`'s; nil when
    /// neither is listed: acceptable, and preferred to nothing listed.
    public let identityWeight: Int?

    /// Reads the members of `fieldValue`: one field's value, or several joined with commas.
    public init(_ fieldValue: String) {
        var gzip: Int?
        var identity: Int?
        var any: Int?
        for member in fieldValue.split(separator: ",") {
            guard let (coding, weight) = Self.member(member) else { continue }
            if coding.equalsIgnoringASCIICase("gzip") || coding.equalsIgnoringASCIICase("x-gzip") {
                gzip = min(gzip ?? weight, weight)
            } else if coding.equalsIgnoringASCIICase("identity") {
                identity = min(identity ?? weight, weight)
            } else if coding == "*" {
                any = min(any ?? weight, weight)
            }
        }
        gzipWeight = gzip ?? any ?? 0
        identityWeight = identity ?? any
    }

    /// Whether to send gzip rather than identity: gzip is acceptable and identity is not
    /// weighted above it (an even weight, as `*` gives, goes to the smaller answer).
    public var prefersGzip: Bool {
        gzipWeight > 0 && gzipWeight >= (identityWeight ?? 0)
    }

    /// Whether the request refuses an answer without a content coding (`identity;q=0`, or
    /// `*;q=0` without an `identity` member).
    public var refusesIdentity: Bool {
        identityWeight == 0
    }

    /// The coding and weight of one list member, `coding *( OWS ";" OWS "q=" qvalue )`; nil when
    /// it breaks that grammar.
    private static func member(_ text: Substring) -> (coding: Substring, weight: Int)? {
        var parts = text.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let coding = parts.next()?.trimmingWhitespace, !coding.isEmpty else { return nil }
        var weight = 1000
        var hasWeight = false
        while let parameter = parts.next()?.trimmingWhitespace {
            guard !hasWeight, parameter.utf8.count >= 2, parameter.utf8.first.map({ $0 | 0x20 }) == UInt8(ascii: "q"),
                parameter.utf8.dropFirst().first == UInt8(ascii: "="), let parsed = qvalue(parameter.dropFirst(2))
            else { return nil }
            weight = parsed
            hasWeight = true
        }
        return (coding, weight)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths (§12.4.2).
    static func qvalue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1"), bytes.count <= 5 else { return nil }
        var thousandths = first == UInt8(ascii: "1") ? 1000 : 0
        guard bytes.count > 1 else { return thousandths }
        guard bytes[1] == UInt8(ascii: "."), bytes.dropFirst(2).allSatisfy(ASCII.isDigit) else { return nil }
        var scale = 100
        for digit in bytes.dropFirst(2) {
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return thousandths <= 1000 ? thousandths : nil
    }
}
