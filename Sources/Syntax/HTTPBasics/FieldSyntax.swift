/// Which bytes HTTP's field syntax admits (RFC 9110 §5.1, §5.5 and §5.6.2): the one definition
/// the server's parser, the client's head writer, the checks on upstream requests and the
/// configuration reader share, so that none of them lets through what another refuses.
///
/// For this package's modules only; the type is public because the compiler inlines the package
/// members of a public type into other modules, and those of a package type not at all.
public enum FieldSyntax {
    /// `tchar`: a byte of a token, such as a field name or a method. Its set of 128 bits is held
    /// as two 64-bit masks, so a test is a select, a shift and an AND.
    @inlinable @inline(__always)
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        let mask: UInt64 = byte < 64 ? 0x03FF_6CFA_0000_0000 : 0x57FF_FFFF_C7FF_FFFE
        return byte < 128 && mask & (1 << UInt64(byte & 63)) != 0
    }

    /// A byte allowed inside a field value: HTAB, SP, VCHAR and obs-text; never CR, LF, NUL or DEL.
    @inlinable @inline(__always)
    package static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == 0x09
    }

    /// VCHAR: a printable, non-space ASCII byte, as a request target and a host are made of.
    @inlinable @inline(__always)
    package static func isVisible(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    /// A token: not empty, and `tchar` only.
    @inlinable
    package static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        for byte in bytes where !isTokenByte(byte) { return false }
        return true
    }

    /// Whether every byte may stand in a field value.
    @inlinable
    package static func isFieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        endOfFieldValue(in: bytes, from: 0) == bytes.count
    }

    /// The index of the first byte from `start` on that may not stand in a field value, or
    /// `bytes.count` when there is none. Eight bytes are tested at once, since values are most of
    /// a head's bytes (a bearer token is a kilobyte) and nearly always plain printable text.
    @inlinable
    package static func endOfFieldValue(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var offset = start
        while let word = Word(bytes, at: offset), !word.hasByte(below: 0x20), !word.hasByte(0x7F) { offset += 8 }
        // A tab is allowed but fails the word test, so the bytes from its word on are tested one by one.
        while offset < bytes.count && isFieldValueByte(bytes[offset]) { offset += 1 }
        return offset
    }

    /// Whether every byte is VCHAR, as `isVisible` says, testing eight bytes at once.
    @inlinable
    package static func isVisible(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while let word = Word(bytes, at: offset), !word.hasByte(below: 0x21), !word.hasByte(0x7F), !word.hasHighBit { offset += 8 }
        for byte in bytes[offset...] where !isVisible(byte) { return false }
        return true
    }

    /// A token, read from a string's UTF-8 (contiguous for every native string).
    @inlinable
    package static func isToken(_ string: some StringProtocol) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { isToken($0) } ?? Array(string.utf8).withUnsafeBufferPointer { isToken($0) }
    }

    /// Field-value bytes only, read from a string's UTF-8 (contiguous for every native string).
    @inlinable
    package static func isFieldValue(_ string: some StringProtocol) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { isFieldValue($0) } ?? Array(string.utf8).withUnsafeBufferPointer { isFieldValue($0) }
    }

    /// Eight bytes as one integer, for the whole-word tests of "Bit Twiddling Hacks" (Sean Eron Anderson).
    @usableFromInline
    struct Word {
        @usableFromInline let bits: UInt64

        /// The eight bytes at `offset`, or nil when fewer remain.
        @inlinable @inline(__always)
        init?(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
            guard offset + 8 <= bytes.count, let base = bytes.baseAddress else { return nil }
            bits = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }

        @inlinable @inline(__always)
        init(bits: UInt64) {
            self.bits = bits
        }

        /// Whether some byte is below `limit`, which must be at most 128: subtracting `limit`
        /// from every byte borrows into a byte's high bit only where that byte was smaller.
        @inlinable @inline(__always)
        func hasByte(below limit: UInt8) -> Bool {
            (bits &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~bits & 0x8080_8080_8080_8080 != 0
        }

        /// Whether some byte equals `value`: the XOR makes exactly those bytes zero.
        @inlinable @inline(__always)
        func hasByte(_ value: UInt8) -> Bool {
            Word(bits: bits ^ (0x0101_0101_0101_0101 &* UInt64(value))).hasByte(below: 1)
        }

        /// Whether some byte is above 127.
        @inlinable @inline(__always)
        var hasHighBit: Bool {
            bits & 0x8080_8080_8080_8080 != 0
        }
    }
}
