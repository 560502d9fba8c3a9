import HTTPBasics

/// The `uri-host [ ":" port ]` grammar of RFC 3986 §3.2.2–3.2.3, which a `Host` field value
/// must match (RFC 9112 §3.2) and a CONNECT target, with its port, too (RFC 9110 §9.3.6).
///
/// A host is a `reg-name` (an IPv4 address is one too) with well-formed percent-encoding, or an
/// IP literal in brackets, whose bytes are checked (those of IPv6 and IPvFuture) but not its
/// structure: what matters here is that nothing outside the grammar, such as a space, a slash
/// or a second colon, passes. An empty host is valid, as RFC 9110 §7.2 lets clients send one.
enum HostAndPort {
    /// Whether `bytes` is a host with an optional port (digits only), or, when `requiresPort`,
    /// a host with a port from 0 to 65535.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, requiresPort: Bool) -> Bool {
        guard let hostEnd = hostEnd(bytes) else { return false }
        guard hostEnd < bytes.count else { return !requiresPort }
        guard bytes[hostEnd] == ASCII.colon else { return false }
        var port = 0
        for index in (hostEnd + 1)..<bytes.count {
            guard ASCII.isDigit(bytes[index]) else { return false }
            port = min(port * 10 + Int(bytes[index] &- 0x30), 65536)
        }
        return !requiresPort || (hostEnd + 1 < bytes.count && port <= 65535)
    }

    /// Where the host ends (the length of `bytes` or the index of the byte after it), or nil
    /// when it is malformed.
    private static func hostEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        if bytes.first == ASCII.leftBracket {
            index = 1
            while index < bytes.count && bytes[index] != ASCII.rightBracket {
                guard ASCII.isRegisteredNameByte(bytes[index]) || bytes[index] == ASCII.colon else { return nil }
                index += 1
            }
            guard index > 1, index < bytes.count else { return nil }
            return index + 1
        }
        while index < bytes.count && ASCII.isRegisteredNameByte(bytes[index]) {
            if bytes[index] == ASCII.percentSign {
                guard index + 2 < bytes.count, HexDigit.value(of: bytes[index + 1]) != nil,
                    HexDigit.value(of: bytes[index + 2]) != nil
                else { return nil }
                index += 3
            } else {
                index += 1
            }
        }
        return index
    }
}
