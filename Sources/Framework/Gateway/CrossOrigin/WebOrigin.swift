import ASCIISyntax

/// One origin a browser may send in `Origin`, as `CORS_ALLOWED_ORIGINS` lists it:
/// `scheme://host[:port]`, in the form the Fetch standard serializes an origin (lowercase scheme
/// and host, no default port, no path), so that comparing it with a request's `Origin` is
/// comparing text.
struct WebOrigin: Equatable, Sendable {
    /// The origin as a browser serializes it: `https://app.example`, `http://127.0.0.1:8200`.
    let serialized: String

    /// Why a listed origin is not one a browser could send.
    struct Invalid: Error, Equatable {
        let reason: String
    }

    /// Reads `text`, ASCII letters in any case.
    ///
    /// - Throws: `Invalid` for anything but `scheme://host[:port]`: a path (a trailing `/` too),
    ///   a query, credentials, a default port (a browser never sends `:443` for https), a port
    ///   with leading zeros, and `null`, which sandboxed documents and `file:` pages send and
    ///   which must never be trusted.
    init(_ text: String) throws(Invalid) {
        let lowered = text.lowercased()
        guard lowered != "null" else {
            throw Invalid(reason: "null is the origin of sandboxed and file: documents, which anyone can make; it cannot be allowed")
        }
        guard let separator = lowered.firstRange(of: "://") else { throw Invalid(reason: "is not scheme://host[:port]") }
        let scheme = lowered[..<separator.lowerBound]
        guard let first = scheme.utf8.first, Self.isLetter(first),
              scheme.utf8.allSatisfy({ Self.isLetter($0) || DecimalDigits.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { throw Invalid(reason: "has no valid scheme") }
        let authority = lowered[separator.upperBound...]
        if authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            throw Invalid(reason: "has a path, query or fragment; an origin is scheme://host[:port] alone, without even a trailing /")
        }
        guard !authority.contains("@") else { throw Invalid(reason: "has credentials; an origin is scheme://host[:port]") }
        let (host, port) = try Self.split(authority)
        guard Self.isHost(host) else { throw Invalid(reason: "has no valid host") }
        if let port {
            guard (1...5).contains(port.utf8.count), port.utf8.allSatisfy(DecimalDigits.isDigit), port.utf8.first != UInt8(ascii: "0"),
                  let number = Int(port), number <= 65535
            else { throw Invalid(reason: "has no valid port (1 to 65535, without leading zeros)") }
            if (scheme == "http" && number == 80) || (scheme == "https" && number == 443) {
                throw Invalid(reason: "names the default port, which a browser leaves out of Origin; write \(scheme)://\(host)")
            }
        }
        serialized = lowered
    }

    /// The host and the port text after it (`HostAndPortText.split`).
    private static func split(_ authority: Substring) throws(Invalid) -> (host: Substring, port: Substring?) {
        guard let parts = HostAndPortText.split(authority) else { throw Invalid(reason: "has no valid host") }
        return parts
    }

    /// A DNS name or IPv4 address (letters, digits, `-`, `.`), or an IPv6 literal in brackets.
    private static func isHost(_ host: Substring) -> Bool {
        if host.first == "[" {
            let inside = host.dropFirst().dropLast()
            return host.last == "]" && inside.contains(":")
                && inside.utf8.allSatisfy { HexDigit.value(of: $0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        return !host.isEmpty && !host.hasPrefix(".") && !host.contains("..")
            && host.utf8.allSatisfy { isLetter($0) || DecimalDigits.isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
}
