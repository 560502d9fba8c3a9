import Glibc

/// The IPv4 or IPv6 address of a peer, held as its bytes and written as text only when asked
/// (`127.0.0.1`, `2001:db8::1`), so that knowing every client's address costs no allocation.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// Whether it is an IPv6 address (an IPv4 client of a dual-stack listener is one, `::ffff:…`).
    public let isIPv6: Bool
    /// The address in network byte order: its 16 bytes, or its 4 bytes then zeros.
    let bytes: (high: UInt64, low: UInt64)

    /// The address of an `AF_INET` or `AF_INET6` socket address, or nil for any other family.
    init?(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            self.init(isIPv6: false, withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self).sin_addr })
        case AF_INET6:
            self.init(isIPv6: true, withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self).sin6_addr })
        default:
            return nil
        }
    }

    /// The address written as text, such as `192.0.2.1` or `2001:db8::1`, or nil.
    public init?(_ text: String) {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.init(isIPv6: false, ipv4)
        } else if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self.init(isIPv6: true, ipv6)
        } else {
            return nil
        }
    }

    init(isIPv6: Bool, bytes: (high: UInt64, low: UInt64)) {
        self.isIPv6 = isIPv6
        self.bytes = bytes
    }

    /// Copies the bytes of an `in_addr` or `in6_addr`.
    private init<Address>(isIPv6: Bool, _ address: Address) {
        var bytes: (high: UInt64, low: UInt64) = (0, 0)
        withUnsafeBytes(of: address) { source in
            withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: source) }
        }
        self.isIPv6 = isIPv6
        self.bytes = bytes
    }

    public var description: String {
        var bytes = bytes
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = withUnsafeBytes(of: &bytes) { inet_ntop(isIPv6 ? AF_INET6 : AF_INET, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public static func == (lhs: IPAddress, rhs: IPAddress) -> Bool {
        lhs.isIPv6 == rhs.isIPv6 && lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.high)
        hasher.combine(bytes.low)
    }
}
