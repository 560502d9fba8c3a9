/// What runs a connection once the server has written a `101 Switching Protocols` answer: the
/// connection then speaks another protocol (a WebSocket, say) and is no longer the server's HTTP.
///
/// The server calls it on the connection's task, with the socket and any bytes the client sent
/// after the request's head; the connection still counts as open (`maximumConnections`), and
/// its task is cancelled when the server's drain grace period runs out. When it returns, the
/// server closes the socket if it has not. A client closing its sending direction does not
/// cancel it, which sees the close as a read of zero bytes.
///
/// ```swift
/// let echo = ConnectionTakeover { connection in
///     var buffer = ReadBuffer()
///     while let count = try? await connection.socket.read(into: &buffer, deadline: nil), count > 0 {
///         let bytes = Array(buffer.take(upTo: count))
///         try? await connection.socket.write(bytes, deadline: .now + .seconds(10))
///     }
/// }
/// let answer = HTTPResponse.switchingProtocols(headers: ["Upgrade": "echo"], then: echo)
/// ```
///
/// It is declared here because `HTTPResponse`, which carries it, is; but a switched connection is
/// a socket of NetworkRuntime, which this module does not link (apps that call upstreams over
/// URLSession use it, with no event loop). So the server module makes and runs takeovers
/// (HTTP1Server's `init(_:)`, which takes a `SwitchedConnection`), and here the connection
/// it hands over is only `any Sendable`.
public final class ConnectionTakeover: Sendable {
    /// Runs the new protocol on the connection the server hands over.
    package let run: @Sendable (any Sendable) async -> Void

    /// A takeover that runs `run`, for the server module's typed initializer.
    package init(handingOver run: @escaping @Sendable (any Sendable) async -> Void) {
        self.run = run
    }
}
