@testable import NetworkRuntime

/// A TLS server for client tests whose connections run a script on the accepted socket, so a
/// test can make it misbehave exactly (chunked framing, a close without `close_notify`, a stall).
final class TLSStub: Sendable {
    let port: Int
    private let listener: ListeningSocket
    private let task: Task<Void, Never>

    /// Listens on 127.0.0.1; with `tls`, each connection's handshake runs before `script`, else
    /// `script` gets the plain socket (a listener that never answers the client hello).
    init(tls: TLSContext?, script: @escaping @Sendable (AsyncSocket) async -> Void) throws {
        let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        self.listener = listener
        port = listener.port
        task = Task {
            while let socket = try? await listener.accept(registeringOn: .shared) {
                Task {
                    if let tls {
                        guard (try? await socket.startTLS(server: tls, deadline: .now + .seconds(5))) != nil else { return }
                    }
                    await script(socket)
                    socket.close()
                }
            }
        }
    }

    deinit {
        task.cancel()
        listener.close()
    }

    /// Reads until a whole request head has arrived; false when the client closed first.
    static func readHead(_ socket: AsyncSocket) async -> Bool {
        var buffer = ReadBuffer()
        var bytes: [UInt8] = []
        while !bytes.ends(with: Array("\r\n\r\n".utf8)) {
            guard let count = try? await socket.read(into: &buffer, deadline: .now + .seconds(5)), count > 0 else { return false }
            bytes += buffer.take(upTo: count)
        }
        return true
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
