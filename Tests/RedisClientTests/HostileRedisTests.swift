import NetworkRuntime
import RedisClient
import Testing

/// The client against a server that is not Redis but speaks like one: its replies are built to
/// break the parser (issue #30). Each must fail its command, never the process.
@Suite("Redis client against a hostile server")
struct HostileRedisTests {
    /// A loopback server that answers each connection's first read (the client's `PING`) with
    /// `+PONG` and every later one with `reply`.
    final class HostileServer: Sendable {
        let port: Int
        private let listener: ListeningSocket

        init(reply: [UInt8]) throws {
            let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
            self.listener = listener
            port = listener.port
            Task {
                while let connection = try? await listener.accept(registeringOn: .shared) {
                    Task {
                        var buffer = ReadBuffer(capacity: 4096)
                        var answer = Array("+PONG\r\n".utf8)
                        while let count = try? await connection.read(into: &buffer, deadline: .now + .seconds(10)), count > 0 {
                            buffer.consume(buffer.readableCount)
                            guard (try? await connection.write(answer, deadline: .now + .seconds(10))) != nil else { break }
                            answer = reply
                        }
                        connection.close()
                    }
                }
            }
        }

        func shutdown() {
            listener.close()
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
