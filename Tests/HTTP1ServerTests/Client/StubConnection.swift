import Foundation
import Glibc
import Synchronization

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
