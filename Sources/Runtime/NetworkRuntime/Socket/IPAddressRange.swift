/// A block of IP addresses written in CIDR notation (`10.0.0.0/8`, `fd00::/8`), or one address
/// (`192.0.2.7`, `::1`), which is the block of that address alone.
///
/// An IPv4 block also holds the IPv4-mapped IPv6 form of its addresses (`::ffff:10.1.2.3`), which
/// is how a dual-stack listener reports IPv4 clients.
public struct IPAddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The block's first address.
    public let network: IPAddress
    /// How many leading bits every address of the block shares with `network`.
    public let prefixLength: Int

    /// Parses `address` or `address/prefix-length`; nil when either part is invalid.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.isIPv6 ? 128 : 32
        var prefixLength = bits
        if parts.count == 2 {
            guard parts[1].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(parts[1]),
                  (0...bits).contains(length)
            else { return nil }
            prefixLength = length
        }
        self.prefixLength = prefixLength
        network = address.masked(to: address.isIPv6 ? prefixLength : prefixLength + 96)
    }

    /// Whether `address` lies in the block.
    public func contains(_ address: IPAddress) -> Bool {
        if network.isIPv6 == address.isIPv6 {
            return address.masked(to: network.isIPv6 ? prefixLength : prefixLength + 96) == network
        }
        guard !network.isIPv6, let ipv4 = address.unmappedIPv4 else { return false }
        return ipv4.masked(to: prefixLength + 96) == network
    }

    public var description: String { "\(network)/\(prefixLength)" }
}

extension IPAddress {
    /// The network a client is counted under: an IPv4 address itself (also when written in its
    /// IPv4-mapped IPv6 form), an IPv6 address its /64, which one subscriber usually holds whole
    /// and can pick addresses from at will.
    public var clientNetwork: IPAddress {
        if let ipv4 = unmappedIPv4 { return ipv4 }
        return isIPv6 ? masked(to: 64) : self
    }

    /// The address with all but its first `bits` bits (counted as in its 128-bit IPv6 form, where
    /// an IPv4 address takes the last 32) set to zero.
    fileprivate func masked(to bits: Int) -> IPAddress {
        var (high, low) = (UInt64(bigEndian: bytes.high), UInt64(bigEndian: bytes.low))
        if isIPv6 {
            high &= bits >= 64 ? .max : (bits <= 0 ? 0 : ~(UInt64.max >> bits))
            low &= bits >= 128 ? .max : (bits <= 64 ? 0 : ~(UInt64.max >> (bits - 64)))
        } else {
            // An IPv4 address is held in the first 4 bytes: its 32 bits are the top of `high`.
            let ipv4Bits = bits - 96
            high &= ipv4Bits >= 32 ? .max : (ipv4Bits <= 0 ? 0 : ~(UInt64.max >> ipv4Bits))
        }
        return IPAddress(isIPv6: isIPv6, bytes: (high.bigEndian, low.bigEndian))
    }

    /// The IPv4 address of an IPv4-mapped IPv6 one (`::ffff:192.0.2.1`); nil for any other.
    fileprivate var unmappedIPv4: IPAddress? {
        let (high, low) = (UInt64(bigEndian: bytes.high), UInt64(bigEndian: bytes.low))
        guard isIPv6, high == 0, low >> 32 == 0xFFFF else { return nil }
        return IPAddress(isIPv6: false, bytes: ((low << 32).bigEndian, 0))
    }
}
