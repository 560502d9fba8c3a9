import Foundation
import GatewayTesting
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway

/// A WebSocket through a proxy route that requires a token with scopes: the token is checked on
/// the handshake, before anything goes upstream, as for any request of the route.
@Suite struct WebSocketAuthenticationTests {
    static let kitchen = UpstreamDefinition(name: "kitchen", defaultBaseURL: "http://127.0.0.1:1")
    static let catalog = GatewayCatalog(
        upstreams: [kitchen], endpoints: [], proxies: [ProxyRoute("/kitchen", upstream: kitchen, authentication: .required(scopes: ["orders:watch"]))])

    @Test func theHandshakeNeedsATokenWithTheRoutesScopes() async throws {
        let key = TestSigningKey(.edDSA, keyID: "k")
        let path = try AuthenticationEndToEndTests.keySetFile([key])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/orders") { request in
            let accept = WebSocketHandshake.acceptValue(for: request.headers["Sec-WebSocket-Key"] ?? "")
            return .switchingProtocols(headers: ["Upgrade": "websocket", "Sec-WebSocket-Accept": accept], then: ConnectionTakeover { _ in })
        }
        let environment = [
            "UPSTREAM_KITCHEN_URL": stub.baseURL, "AUTH_JWKS_FILE": path, "AUTH_ISSUER": "https://id.example", "AUTH_AUDIENCE": "bff",
        ]
        try await withGateway(catalog: Self.catalog, environment: environment) { gateway in
            func open(_ authorization: String?) async throws -> Int {
                let connection = try await RawConnection(port: gateway.port)
                let extra = authorization.map { [("Authorization", $0)] } ?? []
                try await connection.send(RawConnection.webSocketRequest("/kitchen/orders", port: gateway.port, extra: extra))
                return try await connection.readHead().status
            }
            let claims = #"{"sub":"u","iss":"https://id.example","aud":"bff","exp":\#(Date().timeIntervalSince1970 + 600)"#
            let withoutToken = try await open(nil)
            #expect(withoutToken == 401)
            let withoutScope = try await open("Bearer " + key.token(claims + #","scope":"menu:read"}"#))
            #expect(withoutScope == 403)
            #expect(stub.received.isEmpty)
            let admitted = try await open("Bearer " + key.token(claims + #","scope":"orders:watch"}"#))
            #expect(admitted == 101)
            #expect(stub.received.count == 1)
        }
    }
}
