import ASCIISyntax
import Glibc
import HTTPBasics

/// The hosts `HTTPClient` reaches directly although a proxy is configured: the rules of a
/// `NO_PROXY` value, read as curl and Go read it.
///
/// Entries are separated by commas and compared without regard to case:
/// - `*` alone: every host;
/// - a domain, with or without a leading `.` or `*.`: that name and its subdomains
///   (`example.com` and `.example.com` both cover `example.com` and `api.example.com`);
/// - an IPv4 or IPv6 address (bracketed or not): that address, written as an IP in the URL;
/// - a CIDR range, `10.0.0.0/8` or `fd00::/8`: every IP address in it;
/// - any of the domain and address entries may end in `:port` to cover that port only.
///
/// Entries that are none of these are ignored, as Go ignores them. Besides its entries, the
/// list always covers `localhost` and loopback addresses, as Go does: a proxy elsewhere cannot
/// reach this machine's loopback interface.
public struct ProxyBypassList: Sendable, Equatable {
    private enum Rule: Equatable {
        case everything
        case domain(String, port: Int?)
        case address([UInt8], port: Int?)
        case range([UInt8], prefixLength: Int)
    }

    private let rules: [Rule]

    /// Parses a `NO_PROXY` value; an empty one bypasses only loopback hosts.
    public init(_ text: String) {
        rules = text.split(separator: ",").compactMap { Self.rule(String($0.trimmingWhitespace).lowercased()) }
    }

    /// Whether a request to `host` (a name or an IP literal, IPv6 bracketed or not) and `port`
    /// goes directly rather than through the proxy.
    public func includes(host: String, port: Int) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if let address = Self.ipAddress(name) {
            if Self.isLoopback(address) { return true }
            return rules.contains { rule in
                switch rule {
                case .everything: true
                case .address(let bytes, let rulePort): bytes == address && (rulePort == nil || rulePort == port)
                case .range(let network, let prefixLength): Self.isAddress(address, in: network, prefixLength: prefixLength)
                case .domain: false
                }
            }
        }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return rules.contains { rule in
            switch rule {
            case .everything: true
            case .domain(let domain, let rulePort):
                (name == domain || name.hasSuffix("." + domain)) && (rulePort == nil || rulePort == port)
            case .address, .range: false
            }
        }
    }

    private static func rule(_ entry: String) -> Rule? {
        guard !entry.isEmpty else { return nil }
        if entry == "*" { return .everything }
        if let slash = entry.firstIndex(of: "/") {
            guard let network = ipAddress(String(entry[..<slash])),
                  let prefixLength = Int(entry[entry.index(after: slash)...]), (0...network.count * 8).contains(prefixLength)
            else { return nil }
            return .range(network, prefixLength: prefixLength)
        }
        if let address = ipAddress(entry) { return .address(address, port: nil) }
        var host = Substring(entry)
        var port: Int?
        guard let (hostText, portText) = HostAndPortText.split(host) else { return nil }
        if let portText {
            // `Int`, not `portNumber`: the list has always taken a port as Swift reads a number (`+8080` too).
            guard let number = Int(portText), (1...65535).contains(number) else { return nil }
            port = number
        }
        host = hostText
        if let address = ipAddress(String(host)) { return .address(address, port: port) }
        if host.hasPrefix("*.") { host = host.dropFirst(2) } else if host.hasPrefix(".") { host = host.dropFirst() }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "*") }) else {
            return nil
        }
        return .domain(String(host), port: port)
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 literal (bracketed or not), or nil for anything else.
    private static func ipAddress(_ text: String) -> [UInt8]? {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 { return withUnsafeBytes(of: ipv4) { Array($0) } }
        let unbracketed = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, unbracketed, &ipv6) == 1 { return withUnsafeBytes(of: ipv6) { Array($0) } }
        return nil
    }

    private static func isAddress(_ address: [UInt8], in network: [UInt8], prefixLength: Int) -> Bool {
        guard address.count == network.count else { return false }
        for index in 0..<address.count {
            let bits = min(max(prefixLength - index * 8, 0), 8)
            let mask = UInt8(truncatingIfNeeded: 0xFF00 >> bits)
            guard address[index] & mask == network[index] & mask else { return false }
        }
        return true
    }

    private static func isLoopback(_ address: [UInt8]) -> Bool {
        address.count == 4 ? address[0] == 127 : address == Array(repeating: 0, count: 15) + [1]
    }
}
