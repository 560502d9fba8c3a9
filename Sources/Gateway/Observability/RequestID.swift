import Synchronization

/// The `X-Request-ID` of a request: the client's when it is sane, otherwise a new one.
enum RequestID {
    static let headerName = "X-Request-ID"

    /// Echoes `header` when it is 1 to 128 characters of letters, digits and `-_.:@+=/~`;
    /// anything else (control characters, spaces, quotes, overlong) is replaced, so it is safe
    /// to log, to echo and to send upstream.
    static func resolve(_ header: String?) -> String {
        if let header, isSane(header) { return header }
        return generate()
    }

    static func isSane(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= 128 else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "-_.:@+=/~".utf8.contains(byte)
            }
        }
    }

    /// 32 hexadecimal digits: a random per-process prefix and a mixed counter, unique within the
    /// process and unlikely to repeat across processes, without a system call per request.
    static func generate() -> String {
        let sequence = counter.add(1, ordering: .relaxed).newValue
        // Written straight into the string's storage: no array, no copy.
        return String(unsafeUninitializedCapacity: 32) { bytes in
            writeHex(processPrefix, into: bytes, at: 0)
            writeHex(mixed(sequence &+ processPrefix), into: bytes, at: 16)
            return 32
        }
    }

    private static let processPrefix: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()

    private static let counter = Atomic<UInt64>(0)

    /// splitmix64's finaliser: a bijection, so distinct counters give distinct ids.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func writeHex(_ value: UInt64, into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            bytes[offset + index] = digits.utf8Start[Int(value >> UInt64(60 - 4 * index) & 0xF)]
        }
    }
}
