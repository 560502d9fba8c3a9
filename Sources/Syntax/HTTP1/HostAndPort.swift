import ASCIISyntax
import HTTPBasics

/// The `uri-host [ ":" port ]` grammar of RFC 3986 §3.2.2–3.2.3, which a `Host` field value
/// must match (RFC 9112 §3.2) and a CONNECT target, with its port, too (RFC 9110 §9.3.6).
///
/// A host is a `reg-name` (an IPv4 address is one too) with well-formed percent-encoding, or an
/// IP literal in brackets, whose bytes are checked (those of IPv6, IPvFuture and zone ids) but
/// not its structure: what matters here is that nothing outside the grammar, such as a space, a
/// slash or a second colon, passes. An empty host is valid, as RFC 9110 §7.2 lets clients send one.
enum HostAndPort {
    /// Whether `bytes` is a host with an optional port (digits only), or, when `requiresPort`,
    /// a host with a port from 0 to 65535.
    @inline(__always)
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, requiresPort: Bool) -> Bool {
        guard let hostEnd = hostEnd(bytes) else { return false }
        guard hostEnd < bytes.count else { return !requiresPort }
        guard bytes[hostEnd] == ASCII.colon else { return false }
        var index = hostEnd + 1
        while index < bytes.count && DecimalDigits.isDigit(bytes[index]) { index += 1 }
        guard index == bytes.count else { return false }
        return !requiresPort || isPortNumber(UnsafeBufferPointer(rebasing: bytes[(hostEnd + 1)...]))
    }

    /// Where the host ends (the length of `bytes` or the index of the byte after it), or nil
    /// when it is malformed.
    @inline(__always)
    private static func hostEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        if bytes.first == ASCII.leftBracket {
            index = 1
            while index < bytes.count && bytes[index] != ASCII.rightBracket {
                let byte = bytes[index]
                guard ASCII.isRegisteredNameByte(byte) || byte == ASCII.colon || byte == ASCII.percentSign else { return nil }
                index += 1
            }
            guard index > 1, index < bytes.count else { return nil }
            return index + 1
        }
        while index < bytes.count {
            if ASCII.isRegisteredNameByte(bytes[index]) {
                index += 1
            } else if bytes[index] == ASCII.percentSign, index + 2 < bytes.count,
                HexDigit.value(of: bytes[index + 1]) != nil, HexDigit.value(of: bytes[index + 2]) != nil {
                index += 3
            } else if bytes[index] == ASCII.colon {
                break
            } else {
                return nil
            }
        }
        return index
    }

    /// One to five digits worth at most 65535.
    private static func isPortNumber(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (1...5).contains(digits.count) else { return false }
        return digits.reduce(0) { $0 * 10 + Int($1 &- 0x30) } <= 65535
    }
}
