import HTTP1Server
import NetworkRuntime
import Testing

/// The per-client and server-wide connection caps through real sockets, with 127.0.0.2,
/// 127.0.0.3… as distinct clients on loopback.
///
/// The servers run one event loop, whose accept task and connections take turns on one thread:
/// a connection that has written its response has also marked itself kept alive before the
/// server accepts the next one, so which connection a cap reclaims is decided, not raced.
@Suite struct ClientConnectionCapTests {
    private static let request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

    /// A connection from `source` that has been answered once and is kept alive.
    private func keptAlive(_ server: HTTPServer, from source: String) async throws -> TestClient {
        var client = try await TestClient.connect(port: server.port, from: source)
        try await client.send(Self.request)
        #expect(try await client.readResponse().status == 200)
        return client
    }

    private func expectServed(_ server: HTTPServer, from source: String) async throws {
        var client = try await TestClient.connect(port: server.port, from: source)
        defer { client.close() }
        try await client.send(Self.request)
        #expect(try await client.readResponse().status == 200)
    }

    private func expectRefused(_ server: HTTPServer, from source: String) async throws {
        var client = try await TestClient.connect(port: server.port, from: source)
        defer { client.close() }
        let response = try await client.readResponse()
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        #expect(await client.waitForClose())
    }

    @Test func aClientAtItsCapIsRefusedWhileAnotherIsServed() async throws {
        try await withServer(ServerConfiguration(maximumConnectionsPerClient: 2)) { server in
            // Silent connections: never answered, so never reclaimed.
            let held = [try await TestClient.connect(port: server.port, from: "127.0.0.2"), try await TestClient.connect(port: server.port, from: "127.0.0.2")]
            defer { held.forEach { $0.close() } }
            try await expectRefused(server, from: "127.0.0.2")
            try await expectServed(server, from: "127.0.0.3")
            try await expectRefused(server, from: "127.0.0.2")
            #expect(server.metrics.refusedConnections == 2)
        }
    }

    @Test func aClientAtItsCapGivesUpItsOldestKeptAliveConnection() async throws {
        try await withServer(ServerConfiguration(maximumConnectionsPerClient: 2)) { server in
            var oldest = try await keptAlive(server, from: "127.0.0.2")
            defer { oldest.close() }
            var newer = try await keptAlive(server, from: "127.0.0.2")
            defer { newer.close() }
            try await expectServed(server, from: "127.0.0.2")
            #expect(await oldest.waitForClose())
            // The newer connection was left alone and still serves.
            try await newer.send(Self.request)
            #expect(try await newer.readResponse().status == 200)
            #expect(server.metrics.reclaimedConnections == 1)
            #expect(server.metrics.refusedConnections == 0)
        }
    }

    @Test func anotherClientsConnectionIsNeverReclaimedAtAClientsCap() async throws {
        try await withServer(ServerConfiguration(maximumConnectionsPerClient: 1)) { server in
            var other = try await keptAlive(server, from: "127.0.0.3")
            defer { other.close() }
            let held = try await TestClient.connect(port: server.port, from: "127.0.0.2")
            defer { held.close() }
            try await expectRefused(server, from: "127.0.0.2")
            try await other.send(Self.request)
            #expect(try await other.readResponse().status == 200)
        }
    }

    @Test func theServersCapReclaimsTheOldestKeptAliveConnectionOfAnyClient() async throws {
        try await withServer(ServerConfiguration(maximumConnections: 3)) { server in
            var idle = try await keptAlive(server, from: "127.0.0.2")
            defer { idle.close() }
            let silent = [try await TestClient.connect(port: server.port, from: "127.0.0.2"), try await TestClient.connect(port: server.port, from: "127.0.0.3")]
            defer { silent.forEach { $0.close() } }
            // The idle keep-alive connection makes room for a client with a request.
            try await expectServed(server, from: "127.0.0.4")
            #expect(await idle.waitForClose())
            #expect(server.metrics.reclaimedConnections == 1)
        }
    }

    @Test func frontProxiesAreHeldOnlyToTheServersCap() async throws {
        let proxy = try #require(IPAddressRange("127.0.0.4"))
        let configuration = ServerConfiguration(maximumConnections: 10, maximumConnectionsPerClient: 1, frontProxies: [proxy])
        try await withServer(configuration) { server in
            let held = [
                try await TestClient.connect(port: server.port, from: "127.0.0.4"), try await TestClient.connect(port: server.port, from: "127.0.0.4"),
                try await TestClient.connect(port: server.port, from: "127.0.0.2"),
            ]
            defer { held.forEach { $0.close() } }
            try await expectServed(server, from: "127.0.0.4")
            try await expectRefused(server, from: "127.0.0.2")
        }
    }
}
