import Foundation
package import NetworkRuntime
/// A plain TCP connection to a test server on which a test writes the exact bytes of a request
/// (an `Upgrade`, an HTTP/1.0 line) and reads the answer's head, then, after a protocol switch,
/// raw bytes both ways. Every read has a deadline, so a test that waits for bytes never hangs.
package final class RawConnection {
    package let socket: AsyncSocket
    private var buffer = ReadBuffer(capacity: 64 * 1024)

    /// Connects to 127.0.0.1 at `port`.
    package init(port: Int) async throws {
        socket = try await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: port), deadline: .now + .seconds(5))
    }

    deinit { socket.close() }

    /// A WebSocket opening handshake for `path`: version 13, a fresh key, and `extra` fields
    /// (which replace the defaults of the same name; an empty value leaves the field out).
    package static func webSocketRequest(_ path: String, port: Int, extra: [(String, String)] = [], method: String = "GET", version: String = "HTTP/1.1") -> String {
        var fields: [(String, String)] = [
            ("Host", "127.0.0.1:\(port)"), ("Connection", "Upgrade"), ("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()),
        ]
        for (name, value) in extra {
            fields.removeAll { $0.0.lowercased() == name.lowercased() }
            if !value.isEmpty { fields.append((name, value)) }
        }
        return "\(method) \(path) \(version)\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    }

    /// Writes `text`.
    package func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    package func send(_ bytes: [UInt8]) async throws {
        try await socket.write(bytes, deadline: .now + .seconds(5))
    }

    /// Reads an answer's head: its status and lines, leaving what follows it buffered. A body
    /// announced by `Content-Length` is read too and returned.
    package func readHead(timeout: Duration = .seconds(5)) async throws -> (status: Int, head: String, body: String) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = buffer.withUnsafeReadableBytes { Array($0) }
            if let end = text.indices.dropLast(3).first(where: { text[$0...$0 + 3] == [13, 10, 13, 10] }) {
                let head = String(decoding: text[..<end], as: UTF8.self)
                buffer.consume(end + 4)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let body = try await receive(length, timeout: deadline - .now)
                return (status, head, String(decoding: body, as: UTF8.self))
            }
            guard try await socket.read(into: &buffer, deadline: deadline) > 0 else { throw SocketError.closed }
        }
    }

    /// Reads exactly `count` bytes.
    package func receive(_ count: Int, timeout: Duration = .seconds(5)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while buffer.readableCount < count {
            guard try await socket.read(into: &buffer, deadline: deadline) > 0 else { throw SocketError.closed }
        }
        return Array(buffer.take(upTo: count))
    }

    /// Reads until the peer closes its side; returns the bytes that came before, or throws at the deadline.
    package func receiveUntilClosed(timeout: Duration = .seconds(5)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        while try await socket.read(into: &buffer, deadline: deadline) > 0 {}
        return Array(buffer.take(upTo: buffer.readableCount))
    }

    /// Sends FIN, keeping the connection open for reading.
    package func closeSending() async {
        await socket.shutdownOutput(deadline: .now + .seconds(5))
    }
}
