import ASCIISyntax
public import HTTPBasics
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
/// accepted.identityWeight     // 500
/// ```
public struct AcceptEncoding: Sendable, Equatable {
    /// The weight of `gzip` in thousandths (0 refuses it), from its own member or else `*`'s.
    public let gzipWeight: Int
    /// The weight of `identity` in thousandths, from its own member or else `*`'s; nil when
    /// neither is listed: acceptable, and preferred to nothing listed.
    public let identityWeight: Int?

    /// Reads the members of `fieldValue`: one field's value, or several joined with commas.
    public init(_ fieldValue: String) {
        var weights = Weights()
        weights.read(fieldValue)
        (gzipWeight, identityWeight) = weights.result
    }

    /// Reads every `Accept-Encoding` field of `headers`; nil when there is none.
    public init?(_ headers: HTTPHeaders) {
        var weights = Weights()
        var found = false
        for field in headers where field.name.equalsIgnoringASCIICase("accept-encoding") {
            found = true
            weights.read(field.value)
        }
        guard found else { return nil }
        (gzipWeight, identityWeight) = weights.result
    }

    /// Whether to send gzip rather than identity: gzip is acceptable and identity is not
    /// weighted above it (an even weight, as `*` gives, goes to the smaller answer).
    public var prefersGzip: Bool {
        gzipWeight > 0 && gzipWeight >= (identityWeight ?? 0)
    }

    /// The weights the members read so far give, on bytes: no string is made of a field.
    private struct Weights {
        var gzip: Int?
        var identity: Int?
        var any: Int?

        var result: (gzip: Int, identity: Int?) { (gzip ?? any ?? 0, identity ?? any) }

        /// Reads the members of `value`, in place when its bytes are contiguous, as a native string's are.
        mutating func read(_ value: String) {
            if value.utf8.withContiguousStorageIfAvailable({ read($0) }) != nil { return }
            var copy = value
            copy.withUTF8 { read($0) }
        }

        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != ASCII.comma { end += 1 }
                if let (coding, weight) = Self.member(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                    if ASCII.equalsLowercased(coding, "gzip") || ASCII.equalsLowercased(coding, "x-gzip") {
                        gzip = min(gzip ?? weight, weight)
                    } else if ASCII.equalsLowercased(coding, "identity") {
                        identity = min(identity ?? weight, weight)
                    } else if ASCII.equalsLowercased(coding, "*") {
                        any = min(any ?? weight, weight)
                    }
                }
                start = end + 1
            }
        }

        /// The coding and weight of one list member, `coding *( OWS ";" OWS "q=" qvalue )`; nil
        /// when it breaks that grammar or is empty.
        private static func member(_ bytes: UnsafeBufferPointer<UInt8>) -> (coding: UnsafeBufferPointer<UInt8>, weight: Int)? {
            var parts = Parts(bytes: bytes)
            guard let coding = parts.next(), !coding.isEmpty else { return nil }
            guard let parameter = parts.next() else { return (coding, 1000) }
            guard parameter.count >= 2, parameter[0] | 0x20 == UInt8(ascii: "q"), parameter[1] == UInt8(ascii: "="),
                let weight = AcceptEncoding.qvalue(UnsafeBufferPointer(rebasing: parameter[2...])), parts.next() == nil
            else { return nil }
            return (coding, weight)
        }
    }

    /// The `;`-separated parts of a member, each without surrounding whitespace.
    private struct Parts {
        let bytes: UnsafeBufferPointer<UInt8>
        var start = 0

        mutating func next() -> UnsafeBufferPointer<UInt8>? {
            guard start <= bytes.count else { return nil }
            var end = start
            while end < bytes.count && bytes[end] != ASCII.semicolon { end += 1 }
            var first = start, last = end
            start = end + 1
            while first < last && ASCII.isWhitespace(bytes[first]) { first += 1 }
            while last > first && ASCII.isWhitespace(bytes[last - 1]) { last -= 1 }
            return UnsafeBufferPointer(rebasing: bytes[first..<last])
        }
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths (§12.4.2).
    static func qvalue(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1"), bytes.count <= 5 else { return nil }
        var thousandths = first == UInt8(ascii: "1") ? 1000 : 0
        guard bytes.count > 1 else { return thousandths }
        guard bytes[1] == UInt8(ascii: "."), bytes.dropFirst(2).allSatisfy(DecimalDigits.isDigit) else { return nil }
        var scale = 100
        for digit in bytes.dropFirst(2) {
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return thousandths <= 1000 ? thousandths : nil
    }
}
