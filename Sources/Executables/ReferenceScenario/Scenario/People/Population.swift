/// A planet's population as a JSON number: SWAPI sends numbers as strings, and `"unknown"` or
/// `"n/a"` for none.
enum Population: Encodable, Sendable, Equatable {
    case whole(Int64)
    case fractional(Double)

    /// Nil for `"unknown"`, `"n/a"` and anything that is not a plain decimal number.
    init?(_ text: String?) {
        guard let text, let first = text.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if let whole = Int64(text) {
            self = .whole(whole)
        } else if text.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }),
            let fractional = Double(text), fractional.isFinite
        {
            self = .fractional(fractional)
        } else {
            return nil
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .whole(let value): try container.encode(value)
        case .fractional(let value): try container.encode(value)
        }
    }
}
