import Synchronization

/// Cheap 64-bit identifiers for request ids, trace ids and parent ids: a random per-process
/// prefix and a mixed counter, unique within the process and unlikely to repeat across processes,
/// without a system call or a lock per identifier.
enum IdentifierSource {
    /// Random once per process, never zero, so an id that starts with it is never all zeros.
    static let processPrefix: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        var prefix: UInt64 = 0
        while prefix == 0 { prefix = generator.next() }
        return prefix
    }()

    private static let counter = Atomic<UInt64>(0)

    /// The next identifier: distinct from every other this process draws, since the mixing is a
    /// bijection of the counter; zero for one counter value in 2⁶⁴.
    static func next() -> UInt64 {
        mixed(counter.add(1, ordering: .relaxed).newValue &+ processPrefix)
    }

    /// The next identifier that is not zero, for ids that W3C Trace Context forbids to be all zeros.
    static func nextNonZero() -> UInt64 {
        while true {
            let value = next()
            if value != 0 { return value }
        }
    }

    /// Writes `value` as 16 lower-case hexadecimal digits at `offset`.
    static func writeHex(_ value: UInt64, into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        write(hexWords(of: value), into: bytes, at: offset)
    }

    /// The 16 lower-case hexadecimal digits of `value` as two words whose bytes in memory are the
    /// digits, most significant first: for an id written many times, such as a request's trace id.
    static func hexWords(of value: UInt64) -> (UInt64, UInt64) {
        (hexDigits(of: UInt32(truncatingIfNeeded: value >> 32)), hexDigits(of: UInt32(truncatingIfNeeded: value)))
    }

    /// Writes the 16 digits `hexWords(of:)` made at `offset`.
    static func write(_ words: (UInt64, UInt64), into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        precondition(offset >= 0 && offset + 16 <= bytes.count)
        let destination = UnsafeMutableRawPointer(bytes.baseAddress! + offset)
        destination.storeBytes(of: words.0, as: UInt64.self)
        destination.storeBytes(of: words.1, toByteOffset: 8, as: UInt64.self)
    }

    /// The eight hexadecimal digits of `value` as the bytes of one word in memory order, most
    /// significant first: a few word operations instead of a table lookup per digit, since
    /// every upstream call writes 48 of them.
    private static func hexDigits(of value: UInt32) -> UInt64 {
        // Spread the nibbles one per byte, the least significant in the lowest byte; stored big
        // endian, the highest byte, the most significant digit, comes first.
        var nibbles = UInt64(value)
        nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
        nibbles = nibbles.bigEndian
        // A nibble of 10 or more gets bit 4 once 6 is added; those move from "0"+10 on to "a".
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010) >> 4
        return nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }

    /// splitmix64's finaliser: a bijection, so distinct counters give distinct ids.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
