import Glibc

/// An IPv4 or IPv6 socket address, resolved once at creation.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family, `AF_INET` or `AF_INET6`.
    public let family: Int32
    /// The host as given, for messages.
    public let host: String
    public let port: Int
    private let bytes: [UInt8]

    /// Creates an address from an IPv4 or IPv6 literal, or resolves `host` with `getaddrinfo`
    /// (blocking, so resolve names at startup, not per request).
    public init(host: String, port: Int) throws(SocketError) {
        guard (0...65535).contains(port) else { throw .unresolvable(host: "\(host):\(port)") }
        if let literal = Self.literal(host, port: port) {
            self = literal
        } else {
            self = try Self.lookUp(host, port: port)[0]
        }
    }

    private init(host: String, port: Int, family: Int32, bytes: [UInt8]) {
        self.host = host
        self.port = port
        self.family = family
        self.bytes = bytes
    }

    /// The address of an IPv4 or IPv6 literal (bracketed or not), or nil when `host` is a name.
    package static func literal(_ host: String, port: Int) -> SocketAddress? {
        var ipv4 = sockaddr_in()
        if inet_pton(AF_INET, host, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            return SocketAddress(host: host, port: port, family: AF_INET, bytes: withUnsafeBytes(of: ipv4) { Array($0) })
        }
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET6, unbracketed, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
            return SocketAddress(host: host, port: port, family: AF_INET6, bytes: withUnsafeBytes(of: ipv6) { Array($0) })
        }
        return nil
    }

    /// Every IPv4 and IPv6 address of `host`, in `getaddrinfo`'s order of preference, without
    /// duplicates. Blocks for as long as the lookup takes: call it off the event loops.
    static func lookUp(_ host: String, port: Int) throws(SocketError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let first = results else {
            throw .unresolvable(host: host)
        }
        defer { freeaddrinfo(results) }
        var addresses: [SocketAddress] = []
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            let entry = info.pointee
            if let address = entry.ai_addr, entry.ai_family == AF_INET || entry.ai_family == AF_INET6 {
                let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(entry.ai_addrlen)))
                let resolved = SocketAddress(host: host, port: port, family: entry.ai_family, bytes: bytes)
                if !addresses.contains(resolved) { addresses.append(resolved) }
            }
            candidate = entry.ai_next
        }
        guard !addresses.isEmpty else { throw .unresolvable(host: host) }
        return addresses
    }

    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with the `sockaddr` and its length, as `bind` and `connect` want them.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        bytes.withUnsafeBytes { raw in
            // The bytes were copied from a sockaddr_in or sockaddr_in6, so they are a valid sockaddr prefix.
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
    }
}
