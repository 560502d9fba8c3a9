/// The URL-safe base64 of JWS (RFC 7515 §2): `-` and `_` for `+` and `/`, no padding.
package enum Base64URL {
    /// The bytes `text` encodes; nil for anything but canonical unpadded base64url (padding, other
    /// characters, a length no encoding has, or non-zero bits after the last byte), so one token
    /// has exactly one spelling.
    package static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            guard let value = sextet(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // What is left are the unused low bits of the last character.
        return accumulator == 0 ? bytes : nil
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
