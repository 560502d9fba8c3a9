import Foundation
import Glibc
import Synchronization

/// A deliberately small HTTP server for client tests: blocking Glibc sockets, one thread per
/// connection, and a script per connection, so tests can make it misbehave in exact ways
/// (close while idle, reset mid-body, bad framing, trickle, hang).
final class StubServer: Sendable {
    /// A counter the accept thread shares with the server.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    struct SetupError: Error {
        let call: String
    }

    let port: Int
    private let listener: Int32
    private let accepted = Counter()
    private let isStopped = Atomic<Bool>(false)

    /// Listens on 127.0.0.1 on an ephemeral port and runs `script` for every accepted connection.
    init(script: @escaping @Sendable (StubConnection) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw SetupError(call: "socket") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else { throw SetupError(call: "bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let accepted = accepted
        Thread.detachNewThread {
            while true {
                let descriptor = accept(listener, nil, nil)
                guard descriptor >= 0 else {
                    if errno == EINTR { continue }
                    // Closed here, not in stop(): a descriptor number closed while this thread
                    // may still call accept could be reused by another test's listener.
                    Glibc.close(listener)
                    return
                }
                accepted.value.add(1, ordering: .relaxed)
                Thread.detachNewThread {
                    let connection = StubConnection(descriptor: descriptor)
                    script(connection)
                    connection.close()
                }
            }
        }
    }

    /// Connections accepted so far.
    var acceptedConnections: Int { accepted.value.load(ordering: .relaxed) }

    /// Stops accepting (the accept thread then closes the listener); scripts still running
    /// finish on their own.
    func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit {
        stop()
    }

    /// A server that answers every request on a connection with `response`, keeping it alive.
    static func answering(_ response: String) throws -> StubServer {
        try StubServer { connection in
            while connection.readRequest() != nil {
                connection.write(response)
            }
        }
    }

    /// A server that reads one request per connection, announces it on `received`, and never
    /// answers: the request stays in flight until the client gives up on it.
    static func holdingRequests() throws -> (server: StubServer, received: AsyncStream<Void>) {
        let (received, continuation) = AsyncStream<Void>.makeStream()
        let server = try StubServer { connection in
            guard connection.readRequest() != nil else { return }
            continuation.yield()
            connection.waitForClose()
        }
        return (server, received)
    }
}
