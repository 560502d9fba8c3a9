import HTTP1Server
import HTTPBasics
import NetworkRuntime

/// The proxies in front of the gateway whose word on the client's address is believed
/// (`TRUSTED_PROXIES`), and the one field they write it in (`TRUSTED_PROXIES_HEADER`).
///
/// A request from any other peer is that peer's own. From a trusted one, the field's list is read
/// from the right, as nginx's `real_ip_recursive` and Envoy's `xff_num_trusted_hops` read it: each
/// element was appended by the hop to its right, so the first address that is not itself a trusted
/// proxy is the client; the elements to its left are whatever that client sent, never believed.
/// An element that is no address (`unknown`, an obfuscated `_node`, garbage) ends the walk at the
/// last address read, which keeps a broken chain on one caller instead of trusting what lies beyond it.
/// Only one field is read: a proxy that writes `X-Forwarded-For` passes a client's own `Forwarded`
/// through untouched, and the other way round.
struct TrustedProxies: Sendable {
    /// The field the proxies write the client's address in.
    enum Field: String, Sendable {
        case xForwardedFor = "X-Forwarded-For"
        case forwarded = "Forwarded"
    }

    let ranges: [IPAddressRange]
    let field: Field

    init(_ ranges: [IPAddressRange], field: Field = .xForwardedFor) {
        self.ranges = ranges
        self.field = field
    }

    /// The address of the client `request` comes from; nil when the server did not say (a request built in process).
    func clientAddress(of request: HTTPRequest) -> IPAddress? {
        guard let peer = request.clientAddress else { return nil }
        guard !ranges.isEmpty, isTrusted(peer) else { return peer }
        var client = peer
        for value in request.headers.values(named: field.rawValue).reversed() {
            for element in value.split(separator: ",", omittingEmptySubsequences: false).reversed() {
                guard let address = field == .forwarded ? Self.forwardedFor(element) : Self.node(element.trimmingWhitespace) else {
                    return client
                }
                client = address
                if !isTrusted(address) { return address }
            }
        }
        return client
    }

    func isTrusted(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The address of the `for` parameter of one `Forwarded` element (RFC 7239 §4), nil when it has none or it is no address.
    static func forwardedFor(_ element: Substring) -> IPAddress? {
        for pair in element.split(separator: ";") {
            let pair = pair.trimmingWhitespace
            guard pair.utf8.count > 4, pair.prefix(4).equalsIgnoringASCIICase("for=") else { continue }
            var value = pair.dropFirst(4)
            if value.first == "\"" {
                guard value.count >= 2, value.last == "\"" else { return nil }
                value = value.dropFirst().dropLast()
            }
            return node(value)
        }
        return nil
    }

    /// An address as forwarding fields write it: `192.0.2.1`, `2001:db8::1`, `[2001:db8::1]`, or
    /// any of them with a `:port` (IPv6 bracketed then); nil for anything else.
    static func node(_ text: Substring) -> IPAddress? {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && isPort(rest.dropFirst())) else { return nil }
            return IPAddress(String(text[text.index(after: text.startIndex)..<close]))
        }
        if let address = IPAddress(String(text)) { return address }
        // IPv4 with a port: one colon only, since a bare IPv6 address has several.
        guard let colon = text.firstIndex(of: ":"), text[text.index(after: colon)...].firstIndex(of: ":") == nil,
              isPort(text[text.index(after: colon)...]), let address = IPAddress(String(text[..<colon])), !address.isIPv6
        else { return nil }
        return address
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.count <= 5 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
