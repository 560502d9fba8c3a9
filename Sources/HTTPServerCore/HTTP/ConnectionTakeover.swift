public import NetworkRuntime
/// What runs a connection once the server has written a `101 Switching Protocols` answer: the
/// connection then speaks another protocol (a WebSocket, say) and is no longer the server's HTTP.
///
/// The server calls `run` on the connection's task, with the socket and any bytes the client sent
/// after the request's head; the connection still counts as open (`maximumConnections`), and
/// its task is cancelled when the server's drain grace period runs out. When `run` returns, the
/// server closes the socket if `run` has not. A client closing its sending direction does not
/// cancel `run`, which sees the close as a read of zero bytes.
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
public struct ConnectionTakeover: Sendable {
    let run: @Sendable (SwitchedConnection) async -> Void

    public init(_ run: @escaping @Sendable (SwitchedConnection) async -> Void) {
        self.run = run
    }
}
