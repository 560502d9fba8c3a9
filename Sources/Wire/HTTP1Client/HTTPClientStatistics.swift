/// Connection and queue counts of an `HTTPClient`, for metrics and tests.
public struct HTTPClientStatistics: Sendable, Equatable {
    /// Connections opened since the client was created.
    public var connectionsOpened: Int
    /// Requests sent on a connection that had served an earlier one.
    public var connectionsReused: Int
    /// Connections open now: idle, busy or being connected.
    public var openConnections: Int
    /// Requests waiting now for a connection, every slot of their origin's pool being taken.
    public var waitingRequests: Int
}
