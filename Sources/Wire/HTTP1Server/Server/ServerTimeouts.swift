/// The deadlines the server holds every connection to; all run on the event loop's timer heap.
public struct ServerTimeouts: Sendable, Equatable {
    /// The whole request head must arrive within this time of its first byte (of the
    /// connection's start, for the first request), or the connection is closed.
    public var requestHead: Duration
    /// A request body must keep arriving: at most this long between reads.
    public var bodyGap: Duration
    /// A kept-alive connection with no request in progress is closed after this long.
    public var idle: Duration
    /// A response write that makes no progress for this long drops the client.
    public var send: Duration
    /// Once draining begins, how long a kept-alive connection with no request in progress waits
    /// for one last one (answered with `Connection: close`) before it is closed: a request a
    /// client sent as the drain began is answered, not lost to a reset. Zero closes them as soon
    /// as `shutdown()` is called, as a server that goes away abruptly does.
    public var lastRequest: Duration

    public init(
        requestHead: Duration = .seconds(10),
        bodyGap: Duration = .seconds(10),
        idle: Duration = .seconds(60),
        send: Duration = .seconds(10),
        lastRequest: Duration = .milliseconds(500)
    ) {
        self.requestHead = requestHead
        self.bodyGap = bodyGap
        self.idle = idle
        self.send = send
        self.lastRequest = lastRequest
    }
}
