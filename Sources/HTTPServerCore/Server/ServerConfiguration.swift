import HTTP1
import HTTPBasics
import NetworkRuntime

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
    /// Connections beyond this many are answered `503` and closed at once.
    public var maximumConnections: Int
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
        self.shutdownGracePeriod = shutdownGracePeriod
        self.serverName = serverName
        self.eventLoopCount = eventLoopCount
        self.backlog = backlog
        self.commonResponseFields = commonResponseFields
        self.tls = tls
        self.sharesPort = sharesPort
    }
}
