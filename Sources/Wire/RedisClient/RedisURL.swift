import ASCIISyntax

/// Where and how to reach Redis, from a `redis://` or `rediss://` URL:
/// `redis[s]://[[user]:password@]host[:port][/database]`.
///
/// Parsing is strict: an unknown scheme, an empty host, a port or database that is not a number in
/// range, a query or fragment, or a bad percent escape fail. `description` never shows the password.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// Whether the connection runs TLS (`rediss://`).
    public var usesTLS: Bool
    /// The host name or IP address (IPv6 without brackets).
    public var host: String
    /// The port; 6379 when the URL gives none.
    public var port: Int
    /// The ACL user for `AUTH`, percent-decoded; nil for the default user.
    public var user: String?
    /// The password for `AUTH`, percent-decoded.
    public var password: String?
    /// The database to `SELECT`; 0 when the URL gives none.
    public var database: Int

    /// Why a URL was refused; the reason never quotes the password.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public let reason: String
        public var description: String { reason }
    }

    /// Parses `text`, failing with a reason that does not quote the password.
    public init(parsing text: String) throws(ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(reason: reason) }
        var rest = Substring(text)
        if rest.hasPrefix("redis://") {
            usesTLS = false
            rest = rest.dropFirst(8)
        } else if rest.hasPrefix("rediss://") {
            usesTLS = true
            rest = rest.dropFirst(9)
        } else {
            throw fail("must start with redis:// or rediss://")
        }
        guard !rest.contains("?"), !rest.contains("#") else { throw fail("must have no query or fragment") }
        user = nil
        password = nil
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                let name = userInfo[..<colon]
                user = name.isEmpty ? nil : try Self.percentDecoded(name, part: "user")
                let secret = try Self.percentDecoded(userInfo[userInfo.index(after: colon)...], part: "password")
                guard !secret.isEmpty else { throw fail("password after : must not be empty") }
                password = secret
            } else {
                // Clients read `redis://name@host` either as a user or as a password: neither is
                // guessed here.
                throw fail("credentials must be user:password@ or :password@")
            }
        }
        let authority: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let path = rest[rest.index(after: slash)...]
            if path.isEmpty {
                database = 0
            } else {
                guard path.allSatisfy({ $0.isASCII && $0.isWholeNumber }), path.count <= 5, let number = Int(path) else {
                    throw fail("database must be a number, got \"\(path)\"")
                }
                database = number
            }
        } else {
            authority = rest
            database = 0
        }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("IPv6 host without ]") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 host") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw fail("must name a host") }
        guard hostPart.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else {
            throw fail("host \"\(hostPart)\" has characters a host name cannot have")
        }
        host = String(hostPart)
        if let portPart {
            guard let number = HostAndPortText.portNumber(portPart) else {
                throw fail("port must be a number from 1 to 65535, got \"\(portPart)\"")
            }
            port = number
        } else {
            port = 6379
        }
    }

    /// The URL with the password replaced by `(set)`, for logs and `--check`.
    public var description: String {
        var text = usesTLS ? "rediss://" : "redis://"
        if user != nil || password != nil {
            text += user ?? ""
            if password != nil { text += ":(set)" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        return text + ":\(port)/\(database)"
    }

    private static func percentDecoded(_ text: Substring, part: String) throws(ParseError) -> String {
        guard let decoded = PercentDecoding.decode(text.utf8, plusAsSpace: false) else {
            throw ParseError(reason: "\(part) has a bad percent escape or is not UTF-8")
        }
        return decoded
    }
}
