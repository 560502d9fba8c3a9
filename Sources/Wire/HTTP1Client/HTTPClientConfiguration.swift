public import HTTP1
public import NetworkRuntime
extension HTTPClient {
    /// How an `HTTPClient` pools connections and bounds what it accepts.
    public struct Configuration: Sendable {
        /// Open connections per origin (host and port) and event loop at most; further requests
        /// wait for one.
        public var maximumConnectionsPerOrigin: Int
        /// Requests waiting for a connection per origin at most; beyond it `send` fails with
        /// `HTTPClientError.tooManyWaiters` instead of queueing without bound.
        public var maximumWaitersPerOrigin: Int
        /// How long opening a connection may take, within the request's own timeout.
        public var connectTimeout: Duration
        /// How long a connection may sit idle in the pool; keep it below the servers' keep-alive
        /// timeouts so the client, not the server, usually closes first.
        public var idleTimeout: Duration
        /// Caps on the response head (status line, header bytes and count). The body limit is
        /// the one given to each `send`.
        public var limits: HTTPLimits
        /// The loop that watches the client's sockets, or nil for the loop the calling task runs
        /// on (the shared loop when it runs on none). With nil, each loop gets its own pools, so
        /// a server's connection task and its upstream connections share one thread.
        public var eventLoop: EventLoop?
        /// The proxies requests go through, or nil to reach every origin directly.
        public var proxy: ProxySettings?

        public init(
            maximumConnectionsPerOrigin: Int = 32,
            maximumWaitersPerOrigin: Int = 1024,
            connectTimeout: Duration = .seconds(5),
            idleTimeout: Duration = .seconds(30),
            limits: HTTPLimits = HTTPLimits(),
            eventLoop: EventLoop? = nil,
            proxy: ProxySettings? = nil
        ) {
            self.maximumConnectionsPerOrigin = max(maximumConnectionsPerOrigin, 1)
            self.maximumWaitersPerOrigin = max(maximumWaitersPerOrigin, 0)
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
            self.limits = limits
            self.eventLoop = eventLoop
            self.proxy = proxy
        }
    }
}
