import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny blocking HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for testing `URLSessionTransport`.
///
/// Each connection is read up to the end of its head and answered with the bytes `respond` returns
/// for the request target, then closed; when `respond` returns nil the connection is held open
/// without an answer until the client goes away.
final class LoopbackServer: Sendable {
    let port: UInt16
    private let listener: Int32

    init(respond: @escaping @Sendable (String) -> [UInt8]?) throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 && listen(socketDescriptor, 16) == 0
                    && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(socketDescriptor)
            throw POSIXError(.EADDRINUSE)
        }
        listener = socketDescriptor
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            while true {
                let client = accept(socketDescriptor, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread { Self.serve(client, respond: respond) }
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func serve(_ client: Int32, respond: @Sendable (String) -> [UInt8]?) {
        defer { close(client) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received += buffer[..<count]
        }
        let requestLine = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let target = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        guard let response = respond(target) else {
            while recv(client, &buffer, buffer.count, 0) > 0 {}
            return
        }
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    static func response(_ status: String, headers: [String] = [], body: [UInt8] = []) -> [UInt8] {
        let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.count)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        return Array(head.utf8) + body
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
