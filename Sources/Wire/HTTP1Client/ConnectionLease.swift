/// What a request gets from the pool: a connection to send on, or the right to open one.
enum ConnectionLease: Sendable {
    /// An idle connection that has served earlier requests.
    case reuse(ClientConnection)
    /// A reserved slot: the request opens a new connection.
    case connect
    /// No connection for this request.
    case failed(HTTPClientError)
}
