/// The browser's session cookie: its name, its attributes and its value found in a `Cookie` field.
///
/// The `__Host-` prefix makes the browser refuse the cookie unless it is `Secure`, has `Path=/` and no
/// `Domain`, so no sibling subdomain can plant or overwrite it; `HttpOnly` keeps it from page scripts.
public struct SessionCookie: Sendable, Equatable {
    /// How the browser sends the cookie on requests started by other sites.
    public enum SameSite: String, Sendable {
        /// Sent on top-level navigations from other sites (a link to the app), not on their subrequests.
        case lax = "Lax"
        /// Never sent on requests started by another site.
        case strict = "Strict"
    }

    /// The cookie's name, with its `__Host-` prefix.
    public let name: String
    /// The `SameSite` attribute.
    public let sameSite: SameSite

    /// A cookie named `__Host-` + `suffix`; nil when `suffix` holds a character a cookie name may not
    /// (RFC 6265 §4.1.1 token characters only).
    public init?(suffix: String = "session", sameSite: SameSite = .lax) {
        guard !suffix.isEmpty, suffix.utf8.allSatisfy(Self.isTokenByte) else { return nil }
        self.name = "__Host-" + suffix
        self.sameSite = sameSite
    }

    /// The `Set-Cookie` value that gives the browser `sessionID`, a session cookie (no `Max-Age`), so it
    /// ends with the browser; the server's own lifetimes end it sooner.
    public func setting(_ sessionID: String) -> String {
        "\(name)=\(sessionID); Path=/; Secure; HttpOnly; SameSite=\(sameSite.rawValue)"
    }

    /// The `Set-Cookie` value that makes the browser drop the cookie.
    public var clearing: String {
        "\(name)=; Path=/; Secure; HttpOnly; SameSite=\(sameSite.rawValue); Max-Age=0"
    }

    /// The session id in a request's `Cookie` field values, nil when absent or sent more than once
    /// (two values mean a planted cookie next to ours: neither is trusted).
    public func sessionID<Fields: Sequence<String>>(in cookieFields: Fields) -> String? {
        Self.value(of: name, in: cookieFields).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The value of the cookie `name` in `cookieFields`, nil when absent or sent more than once.
    package static func value<Fields: Sequence<String>>(of name: String, in cookieFields: Fields) -> String? {
        var found: String?
        for field in cookieFields {
            for pair in field.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
                guard found == nil else { return nil }
                found = String(trimmed[trimmed.index(after: equals)...])
            }
        }
        return found
    }

    /// Whether `cookieFields` carry this cookie at all: such a `Cookie` field is never forwarded upstream.
    public func isCarried<Fields: Sequence<String>>(in cookieFields: Fields) -> Bool {
        cookieFields.contains { field in
            field.split(separator: ";").contains { $0.drop { $0 == " " }.hasPrefix(name + "=") }
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
