/// The scheme, host and port that a connection is made to.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The `Host` header value: the port is left out when it is the scheme's default.
    public var hostHeader: String {
        let isDefaultPort = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return isDefaultPort ? host : "\(host):\(port)"
    }

    public var description: String { "\(scheme)://\(hostHeader)" }
}
