import HTTPBasics

/// A cookie as an upstream set it (RFC 6265 §5.2), reduced to what a per-upstream jar needs.
struct Cookie: Sendable, Equatable {
    var name: String
    var value: String
    var path: String
    /// Seconds since 1970 after which the cookie is gone; nil lasts as long as the jar.
    var expiry: Int?
    var isSecureOnly: Bool

    /// The longest `name=value` kept; larger cookies are ignored, as browsers do.
    static let maximumSize = 4096

    /// Parses one `Set-Cookie` value received from `host` for a request to `requestPath`, or nil when
    /// it must be ignored. An expired result tells the jar to delete its namesake.
    static func parse(_ header: String, host: String, requestPath: String, isSecureOrigin: Bool, now: Int) -> Cookie? {
        guard header.utf8.count <= maximumSize * 2, FieldSyntax.isFieldValue(header) else { return nil }
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let pair = parts.next(), let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingWhitespace
        let value = pair[pair.index(after: equals)...].trimmingWhitespace
        guard FieldSyntax.isToken(name), name.utf8.count + value.utf8.count <= maximumSize,
              value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") })
        else { return nil }
        var cookie = Cookie(name: String(name), value: String(value), path: defaultPath(for: requestPath), expiry: nil, isSecureOnly: false)
        var maximumAge: Int?
        while let attribute = parts.next() {
            let key: Substring, argument: Substring
            if let equals = attribute.firstIndex(of: "=") {
                key = attribute[..<equals].trimmingWhitespace
                argument = attribute[attribute.index(after: equals)...].trimmingWhitespace
            } else {
                key = attribute.trimmingWhitespace
                argument = ""
            }
            if key.equalsIgnoringASCIICase("Path") {
                if argument.hasPrefix("/") { cookie.path = String(argument) }
            } else if key.equalsIgnoringASCIICase("Max-Age") {
                if let seconds = Int(argument) { maximumAge = seconds }
            } else if key.equalsIgnoringASCIICase("Expires") {
                if let date = HTTPDate.secondsSince1970(argument) { cookie.expiry = cookie.expiry ?? date }
            } else if key.equalsIgnoringASCIICase("Secure") {
                cookie.isSecureOnly = true
            } else if key.equalsIgnoringASCIICase("Domain") {
                guard domain(argument, matches: host) else { return nil }
            }
        }
        if let maximumAge {
            cookie.expiry = maximumAge <= 0 ? Int.min : now.addingReportingOverflow(maximumAge).partialValue
        }
        if cookie.isSecureOnly && !isSecureOrigin { return nil }
        return cookie
    }

    func isExpired(at now: Int) -> Bool {
        expiry.map { $0 <= now } ?? false
    }

    /// RFC 6265 §5.1.4 path-match.
    func matches(path requestPath: Substring) -> Bool {
        let requestBytes = requestPath.utf8, pathBytes = path.utf8
        guard requestBytes.starts(with: pathBytes) else { return false }
        return requestBytes.count == pathBytes.count || pathBytes.last == UInt8(ascii: "/")
            || requestBytes.dropFirst(pathBytes.count).first == UInt8(ascii: "/")
    }

    /// RFC 6265 §5.1.4 default-path: the request path up to, not including, its last `/`.
    static func defaultPath(for requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex else { return "/" }
        return String(requestPath[..<slash])
    }

    /// The jar sends cookies only back to the host they came from, so `Domain` only decides whether
    /// the cookie is accepted: it must name that host or a parent of it.
    private static func domain(_ attribute: Substring, matches host: String) -> Bool {
        var domain = attribute.lowercased()
        if domain.hasPrefix(".") { domain.removeFirst() }
        return domain.isEmpty || host == domain || host.hasSuffix("." + domain)
    }
}
