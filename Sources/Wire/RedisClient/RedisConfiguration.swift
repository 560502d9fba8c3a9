public import NetworkRuntime
/// How a `RedisClient` connects and how long it waits.
public struct RedisConfiguration: Sendable {
    /// Where Redis is, with the credentials and database.
    public var url: RedisURL
    /// The longest a connection (TCP, TLS, `AUTH`, `SELECT`) may take; it never delays a command,
    /// which fails at once while no connection is up.
    public var connectTimeout: Duration
    /// The longest a command waits for its reply; past it the command fails and the connection is
    /// replaced.
    public var commandTimeout: Duration
    /// The TLS client context of `rediss://` (such as one trusting a private CA); nil for one
    /// trusting the system's certificate authorities.
    public var tls: TLSContext?
    /// The largest reply accepted.
    public var maximumReplyBytes: Int
    /// The first back-off after Redis fails.
    public var initialBackoff: Duration
    /// The longest back-off.
    public var maximumBackoff: Duration

    /// A configuration with the gateway's defaults: a 50 ms command timeout, a 1 s connect timeout,
    /// a back-off from 100 ms to 10 s.
    public init(
        url: RedisURL,
        connectTimeout: Duration = .seconds(1),
        commandTimeout: Duration = .milliseconds(50),
        tls: TLSContext? = nil,
        maximumReplyBytes: Int = 16 << 20,
        initialBackoff: Duration = .milliseconds(100),
        maximumBackoff: Duration = .seconds(10)
    ) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.tls = tls
        self.maximumReplyBytes = maximumReplyBytes
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }
}
