import Foundation
import Glibc
import NetworkRuntime
import RedisClient
import Testing

/// The client against a server that is not Redis but speaks like one: its replies are built to
/// break the parser (issue #30). Each must fail its command, never the process.
@Suite("Redis client against a hostile server")
struct HostileRedisTests {
    /// A loopback server, one blocking thread per connection, that answers the connection's first
    /// read (the client's `PING`) with `+PONG` and every later one with `reply`.
    final class HostileServer: Sendable {
        let port: Int
        private let descriptor: Int32

        init(reply: [UInt8]) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(listener, address, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, address, &length) == 0
                }
            }
            guard listener >= 0, bound else { throw POSIXError(.EADDRINUSE) }
            descriptor = listener
            port = Int(UInt16(bigEndian: address.sin_port))
            Thread.detachNewThread {
                while case let connection = accept(listener, nil, nil), connection >= 0 {
                    Thread.detachNewThread {
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        var answer = Array("+PONG\r\n".utf8)
                        while read(connection, &buffer, buffer.count) > 0 {
                            var offset = 0
                            while offset < answer.count {
                                let sent = answer[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                                guard sent > 0 else { break }
                                offset += sent
                            }
                            answer = reply
                        }
                        close(connection)
                    }
                }
            }
        }

        func shutdown() {
            Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
    }

    private func client(_ server: HostileServer, maximumReplyBytes: Int = 16 << 20) throws -> RedisClient {
        RedisClient(
            RedisConfiguration(
                url: try RedisURL(parsing: "redis://127.0.0.1:\(server.port)"), connectTimeout: .seconds(5), commandTimeout: .seconds(5),
                maximumReplyBytes: maximumReplyBytes))
    }

    @Test("a megabyte of RESP3 attribute markers before a value is read without recursion")
    func attributeChain() async throws {
        let chain = [UInt8](String(repeating: "|0\r\n", count: 250_000).utf8)
        let server = try HostileServer(reply: chain + Array("$2\r\nhi\r\n".utf8))
        defer { server.shutdown() }
        let redis = try client(server)
        #expect(await redis.connect())
        #expect(try await redis.get("k") == Array("hi".utf8))
    }

    @Test("a reply past the byte bound, or one nested past the depth bound, fails its command and the connection")
    func boundedReplies() async throws {
        let endless = try HostileServer(reply: [UInt8](String(repeating: "|0\r\n", count: 200_000).utf8))
        defer { endless.shutdown() }
        let small = try client(endless, maximumReplyBytes: 64 << 10)
        #expect(await small.connect())
        await #expect(throws: RedisError.protocolViolation(reason: RESPParseError.replyTooLarge(limit: 64 << 10).description)) {
            try await small.get("k")
        }
        let deep = try HostileServer(reply: [UInt8](String(repeating: ">1\r\n", count: 200_000).utf8))
        defer { deep.shutdown() }
        let redis = try client(deep)
        #expect(await redis.connect())
        await #expect(throws: RedisError.protocolViolation(reason: RESPParseError.nestedTooDeeply(limit: 16).description)) {
            try await redis.get("k")
        }
    }
}
