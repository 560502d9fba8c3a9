/// ES256 signatures: JWS carries the raw 64-byte r‖s (RFC 7518 §3.4), OpenSSL reads DER.
enum ECDSASignature {
    /// The DER `SEQUENCE { INTEGER r, INTEGER s }` of a raw P-256 signature; nil unless it has 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        let r = integer(raw[0..<32]), s = integer(raw[32..<64])
        // Both fit in 35 bytes, so every length is one byte.
        return [0x30, UInt8(r.count + s.count)] + r + s
    }

    /// A DER INTEGER of the unsigned big-endian `bytes`: leading zeros dropped, one put back when
    /// the high bit would make it negative.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02, UInt8(value.count)] + value
    }
}
