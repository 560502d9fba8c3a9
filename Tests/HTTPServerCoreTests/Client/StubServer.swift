import Foundation
import Glibc
import Synchronization

/// A deliberately small HTTP server for client tests: blocking Glibc sockets, one thread per
/// connection, and a script per connection, so tests can make it misbehave in exact ways
/// (close while idle, reset mid-body, bad framing, trickle, hang).
final class StubServer: Sendable {
    let port: Int
    private let listener: Int32
    private let accepted = Counter()
    private let isStopped = Atomic<Bool>(false)

    /// Listens on 127.0.0.1 on an ephemeral port and runs `script` for every accepted connection.
    init(script: @escaping @Sendable (StubConnection) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw StubError.system("socket") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else { throw StubError.system("bind/listen") }
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

    /// A script that answers every request on the connection with `response`, keeping it alive.
    static func answering(_ response: String) throws -> StubServer {
        try StubServer { connection in
            while connection.readRequest() != nil {
                connection.write(response)
            }
        }
    }
}

/// A counter the accept thread shares with the server.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

enum StubError: Error {
    case system(String)
}

/// One accepted connection of a `StubServer`, driven by blocking calls.
final class StubConnection: Sendable {
    let descriptor: Int32
    private let isClosed = Atomic<Bool>(false)
    /// Bytes read past the end of the last request.
    private let pending = Mutex<[UInt8]>([])

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads one request (head and `Content-Length` body); nil when the client closed.
    func readRequest() -> String? {
        var bytes = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = Self.headEnd(in: bytes) {
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                let bodyLength = Self.contentLength(in: head)
                while bytes.count < end + bodyLength {
                    let count = read(descriptor, &chunk, chunk.count)
                    guard count > 0 else { return nil }
                    bytes += chunk[..<count]
                }
                let rest = Array(bytes[(end + bodyLength)...])
                pending.withLock { $0 = rest }
                return head
            }
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            bytes += chunk[..<count]
        }
    }

    /// Blocks until the client closes the connection.
    func waitForClose() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &chunk, chunk.count) > 0 {}
    }

    @discardableResult
    func write(_ text: String) -> Bool {
        write(Array(text.utf8))
    }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Closes with an RST instead of a FIN.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Glibc.close(descriptor)
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    private static func contentLength(in head: String) -> Int {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
