import HTTP1Client
import HTTPBasics
import NetworkRuntime
import Testing

@testable import HTTP1Server

/// Protocol switches over loopback: the server handing a connection to a `ConnectionTakeover`
/// after its `101` (the bytes the client sent early included), the client's `upgrade` on a
/// connection of its own, and `SocketRelay` between two connections.
@Suite struct ProtocolSwitchTests {
    /// Answers `/echo` with a `101` whose takeover echoes every byte until the client closes, and
    /// anything else with a 200 and a body.
    static let responder = TestResponder { request in
        guard request.path == "/echo" else { return HTTPResponse(status: .ok, body: Array("plain".utf8)) }
        return .switchingProtocols(headers: ["Upgrade": "echo"], then: ConnectionTakeover { connection in
            var pending = connection.bufferedBytes
            var buffer = ReadBuffer()
            while true {
                if !pending.isEmpty {
                    guard (try? await connection.socket.write(pending, deadline: .now + .seconds(5))) != nil else { return }
                }
                guard let count = try? await connection.socket.read(into: &buffer, deadline: .now + .seconds(5)), count > 0 else { return }
                pending = Array(buffer.take(upTo: count))
            }
        })
    }

    /// Reads until `count` bytes, or until what was read ends with `suffix`, or the peer closes.
    private static func read(_ count: Int, from socket: AsyncSocket, after buffered: [UInt8] = [], until suffix: [UInt8]? = nil) async throws -> [UInt8] {
        var buffer = ReadBuffer()
        buffer.append(contentsOf: buffered)
        while buffer.readableCount < count {
            if let suffix, buffer.withUnsafeReadableBytes({ $0.elementsEqualSuffix(suffix) }) { break }
            guard try await socket.read(into: &buffer, deadline: .now + .seconds(5)) > 0 else { break }
        }
        return Array(buffer.take(upTo: buffer.readableCount))
    }

    @Test func theServerHandsTheConnectionOverWithTheBytesSentAfterTheHead() async throws {
        try await withServer(responder: Self.responder) { server in
            let socket = try await AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: server.port), deadline: .now + .seconds(5))
            defer { socket.close() }
            let head = "GET /echo HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\nUpgrade: echo\r\n\r\n"
            try await socket.write(Array((head + "early").utf8), deadline: .now + .seconds(5))
            let answer = String(decoding: try await Self.read(4096, from: socket, until: Array("early".utf8)), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
            #expect(answer.contains("\r\nConnection: upgrade\r\n"))
            #expect(answer.contains("\r\nUpgrade: echo\r\n"))
            #expect(!answer.contains("Content-Length"))
            #expect(answer.hasSuffix("\r\n\r\nearly"), "the bytes after the head go to the takeover, not to the HTTP parser")
            try await socket.write(Array("GET / HTTP/1.1\r\n\r\n".utf8), deadline: .now + .seconds(5))
            #expect(try await Self.read(18, from: socket) == Array("GET / HTTP/1.1\r\n\r\n".utf8), "no longer HTTP: echoed")
            #expect(server.metrics.inFlightRequests == 0)
        }
    }

    @Test func theClientUpgradesOnAConnectionOfItsOwn() async throws {
        try await withServer(responder: Self.responder) { server in
            let client = HTTPClient()
            let request = HTTPClientRequest(host: "127.0.0.1", port: server.port, target: "/echo")
            guard case .switched(let head, let connection) = try await client.upgrade(
                request, to: "echo", timeout: .seconds(5), maximumResponseBytes: 1024)
            else {
                Issue.record("no switch")
                return
            }
            #expect(head.status == .switchingProtocols)
            #expect(head.headers["Upgrade"] == "echo")
            try await connection.socket.write(Array("ping".utf8), deadline: .now + .seconds(5))
            #expect(try await Self.read(4, from: connection.socket, after: connection.bufferedBytes) == Array("ping".utf8))
            connection.socket.close()
            #expect(client.statistics.openConnections == 0, "the pool never saw it")

            let other = HTTPClientRequest(host: "127.0.0.1", port: server.port, target: "/plain")
            guard case .answered(let answer) = try await client.upgrade(other, to: "echo", timeout: .seconds(5), maximumResponseBytes: 1024) else {
                Issue.record("switched where the server did not")
                return
            }
            #expect(answer.status == .ok)
            #expect(answer.body == Array("plain".utf8))
        }
    }

    /// Two connected pairs over loopback: (outside end, end given to the relay) for each side.
    private static func pair(on listener: ListeningSocket) async throws -> (AsyncSocket, AsyncSocket) {
        async let outside = AsyncSocket.connect(to: SocketAddress(host: "127.0.0.1", port: listener.port), deadline: .now + .seconds(5))
        let inside = try await listener.accept(registeringOn: .shared)
        return (try await outside, inside)
    }

    @Test func theRelayPassesAHalfCloseOnThenClosesBothAfterItsTimeout() async throws {
        let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        let (client, clientSide) = try await Self.pair(on: listener)
        let (upstream, upstreamSide) = try await Self.pair(on: listener)
        defer { client.close(); upstream.close() }
        let relay = SocketRelay(idleTimeout: .seconds(30), halfCloseTimeout: .milliseconds(100))
        let running = Task {
            await relay.run(
                between: SwitchedConnection(socket: clientSide, bufferedBytes: Array("early".utf8)),
                and: SwitchedConnection(socket: upstreamSide, bufferedBytes: []))
        }
        #expect(try await Self.read(5, from: upstream) == Array("early".utf8))
        await upstream.shutdownOutput(deadline: .now + .seconds(1))
        #expect(try await Self.read(1, from: client).isEmpty, "the upstream's FIN reaches the client")
        try await client.write(Array("after".utf8), deadline: .now + .seconds(5))
        #expect(try await Self.read(5, from: upstream) == Array("after".utf8), "the other direction goes on")
        let outcome = await running.value
        #expect(outcome.bytesForward == 10)
        #expect(outcome.bytesBackward == 0)
        #expect(outcome.ending == .closed)
        #expect(try await Self.read(1, from: upstream).isEmpty, "closed once the half-close timeout passed")
    }

    @Test func theRelayEndsBothDirectionsWhenNeitherMovesForTheIdleTimeout() async throws {
        let listener = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        let (client, clientSide) = try await Self.pair(on: listener)
        let (upstream, upstreamSide) = try await Self.pair(on: listener)
        defer { client.close(); upstream.close() }
        let relay = SocketRelay(idleTimeout: .milliseconds(100))
        let outcome = await relay.run(
            between: SwitchedConnection(socket: clientSide, bufferedBytes: []), and: SwitchedConnection(socket: upstreamSide, bufferedBytes: []))
        #expect(outcome.ending == .idle)
        #expect(try await Self.read(1, from: client).isEmpty)
        #expect(try await Self.read(1, from: upstream).isEmpty)
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func elementsEqualSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
