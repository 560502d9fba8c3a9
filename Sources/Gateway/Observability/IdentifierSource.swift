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
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            bytes[offset + index] = digits.utf8Start[Int(value >> UInt64(60 - 4 * index) & 0xF)]
        }
    }

    /// Appends `value` as 16 lower-case hexadecimal digits.
    static func appendHex(_ value: UInt64, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            bytes.append(digits.utf8Start[Int(value >> UInt64(60 - 4 * index) & 0xF)])
        }
    }

    /// splitmix64's finaliser: a bijection, so distinct counters give distinct ids.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
