import Foundation
import Glibc
import Synchronization

/// A loopback upstream that misbehaves at the byte level, one blocking thread per connection:
/// it reads a request head and then hangs, trickles, streams without end, sends fixed bytes or
/// resets the connection.
/// It counts the connections it still holds, so a test can check the gateway closed its side.
final class MisbehavingUpstream: Sendable {
    enum Behaviour: Sendable {
        /// Never answers; holds the connection until the client closes it.
        case hang
        /// Sends `head`, then one body byte every `interval` until the client gives up.
        case trickle(head: String, interval: Duration)
        /// A 200 chunked JSON body that never ends: an array of 64 KiB chunks of numbers.
        case endlessChunkedBody
        /// Sends these bytes, then closes.
        case respond(String)
        /// Resets the connection (RST, no answer), as a crashing upstream would.
        case reset
    }

    let port: Int
    private let descriptor: Int32
    private let connections = Atomic<Int>(0)
    private let accepted = Atomic<Int>(0)
    private let mostBytesSent = Atomic<Int>(0)
    private let mostConnections = Atomic<Int>(0)

    init(_ behaviour: Behaviour) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 64) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                accepted.add(1, ordering: .relaxed)
                let open = connections.add(1, ordering: .relaxed).newValue
                mostConnections.max(open, ordering: .relaxed)
                Thread.detachNewThread { [self] in
                    serve(connection, behaviour)
                    close(connection)
                    connections.subtract(1, ordering: .relaxed)
                }
            }
        }
    }

    /// Connections accepted so far.
    var acceptedConnections: Int { accepted.load(ordering: .relaxed) }

    /// The most connections open at once so far.
    var mostConcurrentConnections: Int { mostConnections.load(ordering: .relaxed) }

    /// The most body bytes one connection of an endless body got out before its client closed:
    /// what the client read, plus what the kernel's socket buffers held.
    var largestEndlessBodySent: Int { mostBytesSent.load(ordering: .relaxed) }

    /// Connections this upstream still holds open, waiting (up to two seconds) for it to reach
    /// `expected`: the gateway closes its side asynchronously.
    func openConnections(settlingAt expected: Int) async -> Int {
        let deadline = ContinuousClock.now + .seconds(2)
        while connections.load(ordering: .relaxed) != expected, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return connections.load(ordering: .relaxed)
    }

    /// Stops accepting; connection threads end as their clients close.
    func shutdown() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    private func serve(_ connection: Int32, _ behaviour: Behaviour) {
        guard readHead(connection) else { return }
        switch behaviour {
        case .hang:
            var byte: UInt8 = 0
            while read(connection, &byte, 1) > 0 {}
        case .trickle(let head, let interval):
            guard write(connection, Array(head.utf8)) else { return }
            while write(connection, [0x20]) {
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
            }
        case .endlessChunkedBody:
            guard write(connection, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[0,\r\n".utf8)) else { return }
            let payload = Array(String(repeating: "1,", count: 32 << 10).utf8)
            let chunk = Array(String(payload.count, radix: 16).utf8) + [13, 10] + payload + [13, 10]
            var sent = 0
            while write(connection, chunk) {
                sent += chunk.count
            }
            mostBytesSent.max(sent, ordering: .relaxed)
        case .respond(let text):
            _ = write(connection, Array(text.utf8))
            Glibc.shutdown(connection, Int32(SHUT_WR))
            var byte: UInt8 = 0
            while read(connection, &byte, 1) > 0 {}
        case .reset:
            // A zero linger time makes the close that follows send RST instead of FIN.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
    }

    /// Reads until the end of a request head; false when the client closed first.
    private func readHead(_ connection: Int32) -> Bool {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return false }
            received += buffer[..<count]
        }
        return true
    }

    /// Writes everything; false once the client is gone.
    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
