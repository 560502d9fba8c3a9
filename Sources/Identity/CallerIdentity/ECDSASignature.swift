/// ES256 signatures: JWS carries the raw 64-byte r‖s (RFC 7518 §3.4), OpenSSL reads and writes DER.
enum ECDSASignature {
    /// The DER `SEQUENCE { INTEGER r, INTEGER s }` of a raw P-256 signature; nil unless it has 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        let r = integer(raw[0..<32]), s = integer(raw[32..<64])
        // Both fit in 35 bytes, so every length is one byte.
        return [0x30, UInt8(r.count + s.count)] + r + s
    }

    /// The raw 64-byte r‖s of a DER P-256 signature; nil unless it is exactly a sequence of two
    /// non-negative integers of at most 32 significant bytes each.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        // A P-256 signature's DER is at most 72 bytes, so every length is one byte (short form).
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var position = 2
        var raw: [UInt8] = []
        for _ in 0..<2 {
            guard position + 2 <= der.count, der[position] == 0x02 else { return nil }
            let length = Int(der[position + 1])
            let start = position + 2
            guard length >= 1, length < 0x80, start + length <= der.count, der[start] & 0x80 == 0 else { return nil }
            let value = der[start..<(start + length)].drop { $0 == 0 }
            guard value.count <= 32 else { return nil }
            raw += [UInt8](repeating: 0, count: 32 - value.count) + value
            position = start + length
        }
        return position == der.count ? raw : nil
    }

    /// A DER INTEGER of the unsigned big-endian `bytes`: leading zeros dropped, one put back when
    /// the high bit would make it negative.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02, UInt8(value.count)] + value
    }
}
