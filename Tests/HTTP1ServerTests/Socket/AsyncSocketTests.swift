import Glibc
import Testing

@testable import NetworkRuntime

@Suite struct AsyncSocketTests {
    /// A connected pair over 127.0.0.1: (client side, server side).
    private func connectedPair() async throws -> (AsyncSocket, AsyncSocket) {
        let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        let address = try SocketAddress(host: "127.0.0.1", port: listener.port)
        async let client = AsyncSocket.connect(to: address, deadline: .now + .seconds(5))
        let server = try await listener.accept(registeringOn: .shared)
        return (try await client, server)
    }

    private func readExactly(_ count: Int, from socket: AsyncSocket) async throws -> [UInt8] {
        var buffer = ReadBuffer(capacity: 64)
        while buffer.readableCount < count {
            let read = try await socket.read(into: &buffer, deadline: .now + .seconds(5))
            if read == 0 { break }
        }
        return Array(buffer.take(upTo: buffer.readableCount))
    }

    @Test func writesAndReadsAcrossTheLoop() async throws {
        let (client, server) = try await connectedPair()
        defer { client.close(); server.close() }
        try await client.write(Array("head|".utf8), Array("body".utf8), deadline: .now + .seconds(5))
        #expect(try await readExactly(9, from: server) == Array("head|body".utf8))
    }

    @Test func writesMoreThanTheSocketBufferHolds() async throws {
        let (client, server) = try await connectedPair()
        defer { client.close(); server.close() }
        let payload = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0) }
        async let written: Void = client.write(payload, deadline: .now + .seconds(10))
        let received = try await readExactly(payload.count, from: server)
        try await written
        #expect(received == payload)
    }

    @Test func readReturnsZeroWhenThePeerCloses() async throws {
        let (client, server) = try await connectedPair()
        defer { server.close() }
        client.close()
        var buffer = ReadBuffer()
        #expect(try await server.read(into: &buffer, deadline: .now + .seconds(5)) == 0)
    }

    @Test func readTimesOutAtItsDeadline() async throws {
        let (client, server) = try await connectedPair()
        defer { client.close(); server.close() }
        var buffer = ReadBuffer()
        let started = ContinuousClock.now
        await #expect(throws: SocketError.timedOut) {
            try await server.read(into: &buffer, deadline: .now + .milliseconds(50))
        }
        #expect(ContinuousClock.now - started >= .milliseconds(50))
    }

    @Test func cancellationEndsAWait() async throws {
        let (client, server) = try await connectedPair()
        defer { client.close(); server.close() }
        let reader = Task { () async throws(SocketError) -> Int in
            var buffer = ReadBuffer()
            return try await server.read(into: &buffer, deadline: nil)
        }
        reader.cancel()
        await #expect(throws: SocketError.cancelled) { try await reader.value }
    }

    @Test func reportsAndNotifiesPeerHangUp() async throws {
        let (client, server) = try await connectedPair()
        defer { server.close() }
        #expect(!server.isPeerClosed)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            server.whenPeerCloses { continuation.resume() }
            client.close()
        }
        #expect(server.isPeerClosed)
    }

    @Test func connectingToAClosedPortFails() async throws {
        let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        let address = try SocketAddress(host: "127.0.0.1", port: listener.port)
        listener.close()
        await #expect(throws: SocketError.self) {
            _ = try await AsyncSocket.connect(to: address, deadline: .now + .seconds(5))
        }
    }

    @Test func tasksPreferringTheLoopRunOnIt() async throws {
        let (client, server) = try await connectedPair()
        defer { client.close(); server.close() }
        let echoed = await Task(executorPreference: EventLoop.shared) { () async throws -> [UInt8] in
            try await client.write(Array("ping".utf8), deadline: .now + .seconds(5))
            return try await readExactly(4, from: server)
        }.result
        #expect(try echoed.get() == Array("ping".utf8))
    }

    @Test func knowsTheCurrentLoopOnlyOnItsThread() async {
        let loop = EventLoop.shared
        let onLoop = await Task(executorPreference: loop) { EventLoop.current === loop }.value
        let offLoop = await Task.detached { EventLoop.current == nil }.value
        #expect(onLoop)
        #expect(offLoop)
    }

    @Test func resolvesLiteralsAndNames() throws {
        #expect(try SocketAddress(host: "127.0.0.1", port: 80).description == "127.0.0.1:80")
        #expect(try SocketAddress(host: "::1", port: 80).family == AF_INET6)
        #expect(throws: SocketError.self) { try SocketAddress(host: "127.0.0.1", port: 70000) }
    }
}
