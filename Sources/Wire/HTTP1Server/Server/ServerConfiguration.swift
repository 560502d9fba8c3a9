public import HTTP1
public import HTTPBasics
public import NetworkRuntime
/// Everything `HTTPServer` needs to know before it binds.
public struct ServerConfiguration: Sendable, Equatable {
    /// The address to bind: an IPv4 or IPv6 literal or a name resolved once.
    public var host: String
    /// The port to bind; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: Int
    /// Request line, header and body limits; exceeding one answers 414, 431 or 413 and closes.
    public var limits: HTTPLimits
    /// Head, body, idle and send deadlines.
    public var timeouts: ServerTimeouts
    /// Connections open at once, all clients together. A connection beyond them takes the place
    /// of the oldest kept-alive one (a connection that answered a request and waits for another),
    /// or, when every connection is busy or has not sent its first request, is answered `503` and closed.
    public var maximumConnections: Int
    /// Connections one client may hold open at once, or nil for no such cap. A client's
    /// connection beyond them takes the place of that client's oldest kept-alive one, or is
    /// answered `503` and closed. A client is its address, an IPv6 address its /64 (see
    /// `IPAddress.clientNetwork`), except `frontProxies`.
    public var maximumConnectionsPerClient: Int?
    /// The proxies in front of the server, whose connections carry many clients' requests: they
    /// are not held to `maximumConnectionsPerClient`, only to `maximumConnections`.
    public var frontProxies: [IPAddressRange]
    /// How long in-flight requests may run after `shutdown()` before their connections are closed.
    public var shutdownGracePeriod: Duration
    /// The `Server` header value, or nil (the default) to send none.
    public var serverName: String?
    /// Event loop threads. Connections run on their loop's thread, so one per core is the
    /// usual choice; with 1 everything runs on one thread.
    public var eventLoopCount: Int
    /// The kernel's queue of connections not yet accepted.
    public var backlog: Int32
    /// Fields sent with every response, the server's own refusals included, after the framing
    /// fields (`X-Content-Type-Options: nosniff`, say); encoded once, when the server starts.
    /// A handler's field of the same name is sent too, not replaced.
    public var commonResponseFields: HTTPHeaders
    /// Serves HTTPS with this server context (see `TLSContext.server`), or plain HTTP when nil.
    /// The handshake must finish within the request head timeout.
    public var tls: TLSContext?
    /// Whether another process may listen on the same port beside this one (SO_REUSEPORT), so that
    /// a new binary can start before the old one drains; ignored for port 0.
    public var sharesPort: Bool

    public init(
        host: String = "0.0.0.0",
        port: Int = 8080,
        limits: HTTPLimits = HTTPLimits(),
        timeouts: ServerTimeouts = ServerTimeouts(),
        maximumConnections: Int = 10_000,
        maximumConnectionsPerClient: Int? = nil,
        frontProxies: [IPAddressRange] = [],
        shutdownGracePeriod: Duration = .seconds(10),
        serverName: String? = nil,
        eventLoopCount: Int = 1,
        backlog: Int32 = 1024,
        commonResponseFields: HTTPHeaders = HTTPHeaders(),
        tls: TLSContext? = nil,
        sharesPort: Bool = false
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.timeouts = timeouts
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerClient = maximumConnectionsPerClient
        self.frontProxies = frontProxies
        self.shutdownGracePeriod = shutdownGracePeriod
        self.serverName = serverName
        self.eventLoopCount = eventLoopCount
        self.backlog = backlog
        self.commonResponseFields = commonResponseFields
        self.tls = tls
        self.sharesPort = sharesPort
    }
}
