/// A connection that an HTTP/1.1 exchange handed over after `101 Switching Protocols`: the
/// socket, and the bytes already read from it past the exchange's head, which belong to the new
/// protocol and come first.
///
/// Whoever holds it owns the socket: it is no longer an HTTP connection, no pool takes it back
/// and no server reads another request from it.
public struct SwitchedConnection: Sendable {
    public let socket: AsyncSocket
    /// What the peer sent after the head of the exchange, read before the hand-over.
    public let bufferedBytes: [UInt8]

    public init(socket: AsyncSocket, bufferedBytes: [UInt8]) {
        self.socket = socket
        self.bufferedBytes = bufferedBytes
    }
}
