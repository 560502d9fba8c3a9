import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import Testing

@testable import Gateway

/// WebSockets through proxy routes over real sockets: the handshake's refusals, origins, the
/// route's limits, echo through a stub origin, closing from either side, the idle timeout and the
/// limit on open WebSockets.
@Suite struct WebSocketProxyTests {
    static let live = UpstreamDefinition(name: "live", defaultBaseURL: "http://127.0.0.1:1")

    static let catalog = GatewayCatalog(
        upstreams: [live], endpoints: [],
        proxies: [
            ProxyRoute("/ws", upstream: live),
            ProxyRoute("/lent", upstream: live, upstreamCredentials: .sent),
            ProxyRoute("/limited", upstream: live, rateLimit: .limit(RateLimitPolicy(1, per: .hour))),
        ])

    /// A stub origin whose `/socket` switches to WebSocket and echoes the bytes it gets, until it
    /// gets `bye` (then it closes) or its client closes (then it closes too).
    static func echoOrigin(tls: TLSContext? = nil) throws -> StubUpstream {
        let stub = try StubUpstream(tls: tls, fallback: nil)
        stub.answer("/socket") { request in
            guard let key = request.headers["Sec-WebSocket-Key"] else { return .problem(.badRequest) }
            let headers: HTTPHeaders = [
                "Upgrade": "websocket", "Sec-WebSocket-Accept": WebSocketHandshake.acceptValue(for: key), "Sec-WebSocket-Protocol": "chat",
            ]
            return .switchingProtocols(headers: headers, then: ConnectionTakeover { connection in
                await echo(connection)
            })
        }
        stub.answer("/forged") { _ in
            .switchingProtocols(headers: ["Upgrade": "websocket", "Sec-WebSocket-Accept": "AAAA"], then: ConnectionTakeover { _ in })
        }
        return stub
    }

    private static func echo(_ connection: SwitchedConnection) async {
        var pending = connection.bufferedBytes
        var buffer = ReadBuffer(capacity: 16 * 1024)
        while true {
            if pending.suffix(3) == Array("bye".utf8) { return }
            if !pending.isEmpty {
                guard (try? await connection.socket.write(pending, deadline: .now + .seconds(5))) != nil else { return }
            }
            guard let count = try? await connection.socket.read(into: &buffer, deadline: .now + .seconds(10)), count > 0 else {
                await connection.socket.shutdownOutput(deadline: .now + .seconds(1))
                return
            }
            pending = Array(buffer.take(upTo: buffer.readableCount))
        }
    }

    static func withEcho(
        _ environment: [String: String] = [:], tls: TLSContext? = nil, logs: LogCapture? = nil,
        _ body: (GatewayUnderTest, StubUpstream) async throws -> Void
    ) async throws {
        let stub = try echoOrigin(tls: tls)
        defer { stub.shutdown() }
        let environment = ["UPSTREAM_LIVE_URL": stub.baseURL].merging(environment) { $1 }
        try await withGateway(catalog: catalog, environment: environment, log: logs) { gateway in
            try await body(gateway, stub)
        }
    }

    /// Opens `path` on the gateway and returns the connection and the answer's head.
    static func open(
        _ path: String, on gateway: GatewayUnderTest, extra: [(String, String)] = [], method: String = "GET", version: String = "HTTP/1.1"
    ) async throws -> (RawConnection, status: Int, head: String, body: String, request: String) {
        let connection = try await RawConnection(port: gateway.port)
        let request = RawConnection.webSocketRequest(path, port: gateway.port, extra: extra, method: method, version: version)
        try await connection.send(request)
        let (status, head, body) = try await connection.readHead()
        return (connection, status, head, body, request)
    }

    static func field(_ name: String, in head: String) -> String? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func withholdsTheUpstreamsCredentialsUnlessTheRouteLendsThem() async throws {
        try await Self.withEcho(["UPSTREAM_LIVE_BEARER_TOKEN": "upstream-secret"]) { gateway, stub in
            let (connection, status, _, _, _) = try await Self.open("/ws/socket", on: gateway, extra: [("Authorization", "Bearer client")])
            #expect(status == 101)
            let received = try #require(stub.received.last)
            #expect(received.headers["Authorization"] == "Bearer client", "a route that withholds them passes the client's own")
            await connection.closeSending()
            _ = try await connection.receiveUntilClosed()
        }
    }

    @Test func echoesThroughTheRouteWithTheUpstreamsCredentialsAndEndsWhenTheClientCloses() async throws {
        let logs = try LogCapture()
        defer { logs.close() }
        try await Self.withEcho(["UPSTREAM_LIVE_BEARER_TOKEN": "upstream-secret"], logs: logs) { gateway, stub in
            let (connection, status, head, _, request) = try await Self.open(
                "/lent/socket?room=1", on: gateway, extra: [("Sec-WebSocket-Protocol", "chat, superchat"), ("Authorization", "Bearer client")])
            #expect(status == 101)
            let key = try #require(Self.field("Sec-WebSocket-Key", in: request))
            #expect(Self.field("Sec-WebSocket-Accept", in: head) == WebSocketHandshake.acceptValue(for: key))
            #expect(Self.field("Upgrade", in: head) == "websocket")
            #expect(Self.field("Connection", in: head) == "upgrade")
            #expect(Self.field("Sec-WebSocket-Protocol", in: head) == "chat")
            #expect(Self.field("Content-Length", in: head) == nil)

            let received = try #require(stub.received.last)
            #expect(received.target == "/socket?room=1")
            #expect(received.headers["Sec-WebSocket-Key"] == key)
            #expect(received.headers["Sec-WebSocket-Version"] == "13")
            #expect(received.headers["Sec-WebSocket-Protocol"] == "chat, superchat")
            #expect(received.headers["Authorization"] == "Bearer upstream-secret", "the upstream's credential, never the client's")
            #expect(received.headers["X-Forwarded-For"] == "127.0.0.1")
            #expect(received.headers["Upgrade"] == "websocket")

            try await connection.send("hello")
            #expect(try await connection.receive(5) == Array("hello".utf8))
            // More than any buffer on the way: it passes only if each side reads as the other writes.
            let large = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let socket = connection.socket
            async let sent: Void = socket.write(large, deadline: .now + .seconds(30))
            let echoed = try await connection.receive(large.count, timeout: .seconds(30))
            try await sent
            #expect(echoed == large)

            await connection.closeSending()
            #expect(try await connection.receiveUntilClosed().isEmpty, "the client's close reaches the upstream, whose close comes back")

            let lines = await logs.lines { $0.contains { $0.contains(#""event":"websocket""#) } }
            let line = try #require(lines.first { $0.contains(#""event":"websocket""#) })
            #expect(line.contains(#""route":"/lent/*""#))
            #expect(line.contains(#""bytesToUpstream":\#(5 + large.count)"#))
            #expect(line.contains(#""bytesToClient":\#(5 + large.count)"#))
            #expect(line.contains(#""ending":"closed""#))
            #expect(!line.contains("upstream-secret"))
            let metrics = try await gateway.get("/metrics").text
            #expect(metrics.contains("gateway_websockets_open 0\n"))
            #expect(metrics.contains("gateway_websockets_total 1\n"))
            #expect(metrics.contains(#"gateway_websocket_bytes_total{direction="upstream"} \#(5 + large.count)"#))
            #expect(metrics.contains(#"gateway_websocket_bytes_total{direction="client"} \#(5 + large.count)"#))
        }
    }

    @Test func anHTTPSUpstreamIsReachedOverVerifiedTLS() async throws {
        let tls = try TLSContext.server(certificateFile: TestCertificates.path("server.pem"), privateKeyFile: TestCertificates.path("server.key"))
        try await Self.withEcho(["UPSTREAM_LIVE_CA_FILE": TestCertificates.path("ca.pem")], tls: tls) { gateway, stub in
            #expect(stub.baseURL.hasPrefix("https://"))
            let (connection, status, _, _, _) = try await Self.open("/ws/socket", on: gateway)
            #expect(status == 101)
            let message = Array(repeating: UInt8(ascii: "w"), count: 100_000)
            let socket = connection.socket
            async let sent: Void = socket.write(message, deadline: .now + .seconds(10))
            let echoed = try await connection.receive(message.count)
            try await sent
            #expect(echoed == message)
            await connection.closeSending()
            #expect(try await connection.receiveUntilClosed().isEmpty, "the client's FIN reaches the origin as TLS close_notify, and back")
        }
        let untrusting = try TLSContext.server(
            certificateFile: TestCertificates.path("untrusted.pem"), privateKeyFile: TestCertificates.path("untrusted.key"))
        try await Self.withEcho(["UPSTREAM_LIVE_CA_FILE": TestCertificates.path("ca.pem")], tls: untrusting) { gateway, stub in
            let refused = try await Self.open("/ws/socket", on: gateway)
            #expect(refused.status == 502)
            #expect(stub.received.isEmpty)
        }
    }

    @Test func shutdownLeavesWebSocketsTheDrainPeriodThenClosesThem() async throws {
        let stub = try Self.echoOrigin()
        defer { stub.shutdown() }
        let gateway = try GatewayUnderTest(
            catalog: Self.catalog, environment: ["UPSTREAM_LIVE_URL": stub.baseURL, "DRAIN_TIMEOUT_MS": "300", "SHUTDOWN_DELAY_MS": "0"])
        let (connection, status, _, _, _) = try await Self.open("/ws/socket", on: gateway)
        #expect(status == 101)
        let stopping = Task { await gateway.stop() }
        // Draining has begun once the listener refuses connections.
        var isListening = true
        for _ in 0..<1000 where isListening {
            isListening = (try? await RawConnection(port: gateway.port)) != nil
        }
        #expect(!isListening)
        try await connection.send("still relayed")
        #expect(try await connection.receive(13) == Array("still relayed".utf8))
        #expect(try await connection.receiveUntilClosed(timeout: .seconds(10)).isEmpty)
        await stopping.value
    }

    @Test func shutdownSaysGoingAwayAtAFrameBoundary() async throws {
        let stub = try Self.echoOrigin()
        defer { stub.shutdown() }
        let gateway = try GatewayUnderTest(
            catalog: Self.catalog, environment: ["UPSTREAM_LIVE_URL": stub.baseURL, "DRAIN_TIMEOUT_MS": "100", "SHUTDOWN_DELAY_MS": "0"])
        let (connection, status, _, _, _) = try await Self.open("/ws/socket", on: gateway)
        #expect(status == 101)
        // A masked text frame "hi", split so that the relay sees its header and payload apart;
        // the stub echoes it as it is.
        let frame: [UInt8] = [0x81, 0x82, 1, 2, 3, 4, UInt8(ascii: "h") ^ 1, UInt8(ascii: "i") ^ 2]
        try await connection.send(Array(frame[..<3]))
        try await connection.send(Array(frame[3...]))
        #expect(try await connection.receive(frame.count) == frame)
        let stopping = Task { await gateway.stop() }
        #expect(try await connection.receive(4, timeout: .seconds(10)) == [0x88, 0x02, 0x03, 0xE9], "a close frame with 1001")
        // The client answers with its own close, after which the gateway closes at once.
        try await connection.send([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE9])
        #expect(try await connection.receiveUntilClosed(timeout: .seconds(10)).isEmpty)
        await stopping.value
    }

    @Test func theUpstreamClosingClosesTheClient() async throws {
        try await Self.withEcho { gateway, _ in
            let (connection, status, _, _, _) = try await Self.open("/ws/socket", on: gateway)
            #expect(status == 101)
            try await connection.send("ping")
            #expect(try await connection.receive(4) == Array("ping".utf8))
            try await connection.send("bye")
            #expect(try await connection.receiveUntilClosed().isEmpty)
        }
    }

    @Test func badHandshakesAreRefusedBeforeAnythingGoesUpstream() async throws {
        try await Self.withEcho { gateway, stub in
            let cases: [(extra: [(String, String)], method: String, version: String, status: Int)] = [
                ([], "POST", "HTTP/1.1", 400),
                ([], "GET", "HTTP/1.0", 400),
                ([("Connection", "keep-alive")], "GET", "HTTP/1.1", 400),
                ([("Sec-WebSocket-Version", "8")], "GET", "HTTP/1.1", 426),
                ([("Sec-WebSocket-Version", "")], "GET", "HTTP/1.1", 426),
                ([("Sec-WebSocket-Key", "")], "GET", "HTTP/1.1", 400),
                ([("Sec-WebSocket-Key", "c2hvcnQ=")], "GET", "HTTP/1.1", 400),
                ([("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAA==AA")], "GET", "HTTP/1.1", 400),
                ([("Sec-WebSocket-Key", "!AAAAAAAAAAAAAAAAAAAAA==")], "GET", "HTTP/1.1", 400),
            ]
            for refused in cases {
                let (_, status, head, body, _) = try await Self.open(
                    "/ws/socket", on: gateway, extra: refused.extra, method: refused.method, version: refused.version)
                #expect(status == refused.status, "\(refused)")
                #expect(Self.field("Content-Type", in: head) == "application/problem+json")
                #expect(body.contains(#""status":\#(refused.status)"#))
                if refused.status == 426 { #expect(Self.field("Sec-WebSocket-Version", in: head) == "13") }
            }
            #expect(stub.received.isEmpty)
        }
    }

    @Test func onlyTheGatewaysOwnOriginWithoutCORSAndTheAllowedOnesWithIt() async throws {
        try await Self.withEcho { gateway, stub in
            #expect(try await Self.open("/ws/socket", on: gateway, extra: [("Origin", "http://127.0.0.1:\(gateway.port)")]).status == 101)
            let refused = try await Self.open("/ws/socket", on: gateway, extra: [("Origin", "https://evil.example")])
            #expect(refused.status == 403)
            #expect(Self.field("Content-Type", in: refused.head) == "application/problem+json")
            #expect(try await Self.open("/ws/socket", on: gateway, extra: [("Origin", "null")]).status == 403)
            #expect(stub.received.count == 1)
        }
        try await Self.withEcho(["CORS_ALLOWED_ORIGINS": "https://app.example"]) { gateway, _ in
            let allowed = try await Self.open("/ws/socket", on: gateway, extra: [("Origin", "https://app.example")])
            #expect(allowed.status == 101)
            let other = try await Self.open("/ws/socket", on: gateway, extra: [("Origin", "https://evil.example")])
            #expect(other.status == 403)
        }
    }

    @Test func theRoutesRateLimitAppliesToTheHandshake() async throws {
        try await Self.withEcho { gateway, stub in
            #expect(try await Self.open("/limited/socket", on: gateway).status == 101)
            let limited = try await Self.open("/limited/socket", on: gateway)
            #expect(limited.status == 429)
            #expect(stub.received.count == 1)
        }
    }

    @Test func otherUpstreamAnswersPassAndAForgedAcceptIsA502() async throws {
        try await Self.withEcho { gateway, _ in
            let missing = try await Self.open("/ws/elsewhere", on: gateway)
            #expect(missing.status == 404)
            let forged = try await Self.open("/ws/forged", on: gateway)
            #expect(forged.status == 502)
            #expect(Self.field("Content-Type", in: forged.head) == "application/problem+json")
        }
    }

    @Test func aWebSocketWithoutTrafficIsClosedAfterTheIdleTimeout() async throws {
        let logs = try LogCapture()
        defer { logs.close() }
        try await Self.withEcho(["WEBSOCKET_IDLE_TIMEOUT_MS": "200"], logs: logs) { gateway, _ in
            let (connection, status, _, _, _) = try await Self.open("/ws/socket", on: gateway)
            #expect(status == 101)
            try await connection.send("still here")
            #expect(try await connection.receive(10) == Array("still here".utf8))
            #expect(try await connection.receiveUntilClosed(timeout: .seconds(10)).isEmpty)
            let lines = await logs.lines { $0.contains { $0.contains(#""ending":"idle""#) } }
            #expect(lines.contains { $0.contains(#""ending":"idle""#) })
        }
    }

    @Test func webSocketsBeyondTheLimitAreRefusedUntilOneCloses() async throws {
        try await Self.withEcho(["WEBSOCKET_MAX_CONNECTIONS": "1"]) { gateway, _ in
            let (first, status, _, _, _) = try await Self.open("/ws/socket", on: gateway)
            #expect(status == 101)
            let refused = try await Self.open("/ws/socket", on: gateway)
            #expect(refused.status == 503)
            #expect(Self.field("Retry-After", in: refused.head) == "1")
            try await first.send("bye")
            #expect(try await first.receiveUntilClosed().isEmpty)
            // As a WebSocket client does once the server closed: its own close ends the relay.
            first.socket.close()
            // The place is given back once the relay has closed both sides, just after the client saw its close.
            var metrics = ""
            for _ in 0..<200 where !metrics.contains("gateway_websockets_open 0\n") {
                metrics = try await gateway.get("/metrics").text
            }
            #expect(metrics.contains("gateway_websockets_refused_total 1\n"))
            let again = try await Self.open("/ws/socket", on: gateway)
            #expect(again.status == 101, "\(again.head) \(again.body) \(metrics)")
        }
    }
}
