import ASCIISyntax
import Glibc
import HTTP1
import HTTPBasics
import NetworkRuntime

/// An HTTP proxy that `HTTPClient` sends through, parsed from a URL such as
/// `http://user:password@proxy.internal:3128`.
///
/// Only plain `http://` proxies are supported (a URL without a scheme is one, as curl and Go
/// read it); the port defaults to 80. Credentials are percent-decoded and sent as
/// `Proxy-Authorization: Basic`; nothing prints them: `description` shows `***` in their place
/// and parse errors never quote the URL.
public struct ProxyServer: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The proxy's host name or IP address (an IPv6 one without brackets).
    public let host: String
    /// The proxy's port, 80 unless the URL gives one.
    public let port: Int
    /// The `Proxy-Authorization` value, `Basic` and the encoded credentials, or nil.
    let authorization: String?

    /// Why a proxy URL was refused. Descriptions never quote the URL, which may hold a password.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// An `https://` proxy URL: TLS to the proxy itself is not supported.
        case httpsProxy
        /// A scheme other than `http` and `https`, such as `socks5`.
        case unsupportedScheme
        /// Nothing between the scheme (or the credentials) and the port.
        case missingHost
        /// A host with characters a name or IP literal cannot hold, or an unclosed `[`.
        case invalidHost
        /// A port that is not a number from 1 to 65535.
        case invalidPort
        /// A user or password with a malformed `%` escape.
        case invalidCredentials
        /// Something after the authority other than a lone `/`.
        case unexpectedPath

        /// What is wrong, phrased to follow the name of the variable that held the URL.

        public var description: String {
            switch self {
            case .httpsProxy: "is an https:// proxy, which is not supported: use an http:// proxy URL"
            case .unsupportedScheme: "has an unsupported scheme: only http:// proxies are supported"
            case .missingHost: "has no host"
            case .invalidHost: "has an invalid host"
            case .invalidPort: "has an invalid port: it must be a number from 1 to 65535"
            case .invalidCredentials: "has credentials with an invalid percent-escape"
            case .unexpectedPath: "must not have a path, query or fragment"
            }
        }
    }

    /// Parses `http://[user[:password]@]host[:port][/]`.
    public init(url: String) throws(ParseError) {
        var rest = Substring(url).trimmingWhitespace
        if let schemeEnd = rest.firstRange(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            guard scheme == "http" else { throw scheme == "https" ? .httpsProxy : .unsupportedScheme }
            rest = rest[schemeEnd.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...] == "/" else { throw .unexpectedPath }
            rest = rest[..<slash]
        }
        guard !rest.contains(where: { $0 == "?" || $0 == "#" }) else { throw .unexpectedPath }
        var authorization: String?
        if let at = rest.lastIndex(of: "@") {
            authorization = try Self.basicAuthorization(userInfo: rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        guard let (hostText, portText) = HostAndPortText.split(rest) else { throw .invalidHost }
        var port = 80
        if let portText {
            guard let number = HostAndPortText.portNumber(portText) else { throw .invalidPort }
            port = number
        }
        rest = hostText
        guard !rest.isEmpty else { throw .missingHost }
        if rest.hasPrefix("[") {
            guard rest.hasSuffix("]"), SocketAddress.literal(String(rest), port: port)?.family == AF_INET6 else { throw .invalidHost }
            rest = rest.dropFirst().dropLast()
        } else {
            guard rest.utf8.allSatisfy(Self.isHostByte) else { throw .invalidHost }
        }
        host = rest.lowercased()
        self.port = port
        self.authorization = authorization
    }

    /// The URL with `***` in place of any credentials.
    public var description: String {
        "http://" + (authorization == nil ? "" : "***@") + authority
    }

    /// What `dump` and debuggers show: no credentials either.
    public var customMirror: Mirror {
        Mirror(self, children: ["host": host, "port": port, "credentials": authorization == nil ? "none" : "***"])
    }

    /// `host:port` with an IPv6 host in brackets, as CONNECT and absolute-form targets need it.
    var authority: String {
        Self.authority(host: host, port: port)
    }

    static func authority(host: String, port: Int) -> String {
        // The `Host` value leaves out port 80 only.
        HTTPClient.hostHeader(host: host, port: port) + (port == 80 ? ":80" : "")
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
        }
    }

    /// `Basic` and the Base64 of `user:password`, both percent-decoded; nil for an empty user info.
    private static func basicAuthorization(userInfo: Substring) throws(ParseError) -> String? {
        guard !userInfo.isEmpty else { return nil }
        let colon = userInfo.firstIndex(of: ":") ?? userInfo.endIndex
        guard let user = PercentDecoding.decode(userInfo[..<colon].utf8, plusAsSpace: false) else { throw .invalidCredentials }
        var password = ""
        if colon < userInfo.endIndex {
            guard let decoded = PercentDecoding.decode(userInfo[userInfo.index(after: colon)...].utf8, plusAsSpace: false) else {
                throw .invalidCredentials
            }
            password = decoded
        }
        return "Basic " + base64(Array((user + ":" + password).utf8))
    }

    /// RFC 4648 Base64 with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                encoded.append(position <= count ? alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
