import Foundation
import GatewayTesting
import Testing

@testable import Gateway

/// Rate limits keyed by the verified token's `sub`, through real sockets.
@Suite struct RateLimitBySubjectTests {
    @Test func eachSubjectHasItsOwnAllowanceAndAnonymousCallersTheirAddress() async throws {
        let key = TestSigningKey(.es256, keyID: "k1")
        let path = try AuthenticationEndToEndTests.keySetFile([key])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/people", json: #"{"name":"Leia"}"#)
        let gateway = try GatewayUnderTest(
            catalog: AuthenticationEndToEndTests.catalog,
            environment: AuthenticationEndToEndTests.environment(stub, ["AUTH_JWKS_FILE": path, "RATE_LIMIT": "1/h"]))
        let alice = AuthenticationEndToEndTests.bearer(key.token(AuthenticationEndToEndTests.claims(sub: "alice")))
        let bob = AuthenticationEndToEndTests.bearer(key.token(AuthenticationEndToEndTests.claims(sub: "bob")))
        // A refused token is answered before the limit, and costs the caller nothing.
        #expect(try await gateway.get("/v1/me").status == 401)
        let first = try await gateway.get("/v1/me", headers: alice)
        #expect(first.status == 200)
        #expect(first.headers["RateLimit"] == #""default";r=0;t=3600"#)
        // A second token for the same subject shares its allowance; another subject has its own.
        let aliceAgain = AuthenticationEndToEndTests.bearer(key.token(AuthenticationEndToEndTests.claims(sub: "alice", exp: Date().timeIntervalSince1970 + 900)))
        let refused = try await gateway.get("/v1/me", headers: aliceAgain)
        #expect(refused.status == 429)
        #expect(refused.headers["Retry-After"] == "3600")
        #expect(try await gateway.get("/v1/me", headers: bob).status == 200)
        #expect(stub.received.count == 2)
        // A route without a token counts its callers by address: all of this test's share 127.0.0.1.
        #expect(try await gateway.get("/v1/open", headers: alice).status == 200)
        #expect(try await gateway.get("/v1/open", headers: bob).status == 429)
        await gateway.stop()
    }
}
