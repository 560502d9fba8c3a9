import GatewayTesting
import NetworkRuntime
import Testing

/// `MAX_CONNECTIONS_PER_CLIENT` through real sockets, with 127.0.0.2, 127.0.0.3… as distinct
/// clients on loopback: one client cannot hold every connection, and a trusted proxy, which
/// carries many clients' requests, is not held to it.
@Suite struct ClientConnectionCapTests {
    private static let health = "GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"

    @Test func aClientPastItsCapIsRefusedWhileOthersAndTrustedProxiesAreServed() async throws {
        let environment = ["MAX_CONNECTIONS_PER_CLIENT": "2", "TRUSTED_PROXIES": "127.0.0.4"]
        try await withGateway(catalog: RateLimitEndToEndTests.catalog, environment: environment) { gateway in
            let deadline = ContinuousClock.now + .seconds(5)
            // Silent connections: never answered, so the cap has nothing of theirs to reclaim.
            var held: [AsyncSocket] = []
            defer { held.forEach { $0.close() } }
            for source in ["127.0.0.2", "127.0.0.2", "127.0.0.4", "127.0.0.4", "127.0.0.4"] {
                held.append(try await RawHTTP.connect(port: gateway.port, from: source, deadline: deadline))
            }
            // Nothing is sent: the refusal comes at once, and unread bytes would turn the close into a reset.
            let refused = try await RawHTTP.exchange("", port: gateway.port, from: "127.0.0.2")
            #expect(RawHTTP.status(of: refused) == 503)
            #expect(refused.contains("Retry-After: 1\r\n"))
            #expect(RawHTTP.status(of: try await RawHTTP.exchange(Self.health, port: gateway.port, from: "127.0.0.3")) == 200)
            #expect(RawHTTP.status(of: try await RawHTTP.exchange(Self.health, port: gateway.port, from: "127.0.0.4")) == 200)
        }
    }
}
