import GatewayTesting
import Testing

@testable import Gateway

@Suite("OAuth2 client credentials from UPSTREAM_{NAME}_OAUTH2_* variables")
struct OAuth2ConfigurationTests {
    private static let api = UpstreamDefinition(name: "api", defaultBaseURL: "http://127.0.0.1:9")

    private static let whoami = Endpoint("/v1/whoami", summary: "x", upstreams: [api], example: ["user": "x"]) { call in
        try await call.upstream(api).get("whoami", as: [String: String].self)
    }

    @Test("the token is fetched with the client's credentials and sent to the upstream")
    func tokenSent() async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/token", method: .post, json: #"{"access_token":"t0k3n","expires_in":300}"#)
        stub.answer("/api/whoami") { request in
            request.headers["Authorization"] == "Bearer t0k3n"
                ? .json(Array(#"{"user":"gateway"}"#.utf8)) : .json(Array("{}".utf8), status: .unauthorized)
        }
        let gateway = try GatewayUnderTest(
            catalog: GatewayCatalog(upstreams: [Self.api], endpoints: [Self.whoami]),
            environment: [
                "UPSTREAM_API_URL": stub.baseURL + "/api", "UPSTREAM_API_OAUTH2_TOKEN_URL": stub.baseURL + "/token",
                "UPSTREAM_API_OAUTH2_CLIENT_ID": "client", "UPSTREAM_API_OAUTH2_CLIENT_SECRET": "s3cret",
            ])
        let response = try await gateway.get("/v1/whoami")
        await gateway.stop()
        #expect(response.text == #"{"user":"gateway"}"#)
        let token = try #require(stub.received.first { $0.path == "/token" })
        #expect(token.headers["Authorization"] == "Basic Y2xpZW50OnMzY3JldA==")
        #expect(String(decoding: token.body, as: UTF8.self) == "grant_type=client_credentials")
    }

    @Test(
        "a token endpoint that refuses or fails is a 5xx problem; the upstream is not called and no secret is echoed",
        arguments: [(401, #"{"error":"invalid_client","error_description":"s3cret"}"#), (500, "s3cret"), (200, #"{"token_type":"s3cret"}"#)])
    func tokenEndpointFails(status: Int, body: String) async throws {
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/token", method: .post, status: status, json: body)
        let gateway = try GatewayUnderTest(
            catalog: GatewayCatalog(upstreams: [Self.api], endpoints: [Self.whoami]),
            environment: [
                "UPSTREAM_API_URL": stub.baseURL + "/api", "UPSTREAM_API_OAUTH2_TOKEN_URL": stub.baseURL + "/token",
                "UPSTREAM_API_OAUTH2_CLIENT_ID": "client", "UPSTREAM_API_OAUTH2_CLIENT_SECRET": "s3cret",
                "UPSTREAM_API_RETRY_ATTEMPTS": "1",
            ])
        let response = try await gateway.get("/v1/whoami")
        await gateway.stop()
        #expect((500...599).contains(response.status))
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(!response.text.contains("s3cret"))
        #expect(!stub.received.contains { $0.path.hasPrefix("/api") })
    }

    @Test("all three of URL, id and secret, and not with a bearer token")
    func incomplete() {
        #expect(throws: ConfigurationError(
            variable: "UPSTREAM_API_OAUTH2_CLIENT_SECRET", problem: "must be set along with the other OAuth2 variables of api")
        ) {
            try GatewayConfiguration(
                environment: ["UPSTREAM_API_OAUTH2_TOKEN_URL": "http://127.0.0.1:9/token", "UPSTREAM_API_OAUTH2_CLIENT_ID": "c"],
                upstreams: [Self.api])
        }
        #expect(throws: ConfigurationError(variable: "UPSTREAM_API_BEARER_TOKEN", problem: "cannot be set along with OAuth2 client credentials")) {
            try GatewayConfiguration(
                environment: [
                    "UPSTREAM_API_OAUTH2_TOKEN_URL": "http://127.0.0.1:9/token", "UPSTREAM_API_OAUTH2_CLIENT_ID": "c",
                    "UPSTREAM_API_OAUTH2_CLIENT_SECRET": "s", "UPSTREAM_API_BEARER_TOKEN": "b",
                ],
                upstreams: [Self.api])
        }
    }
}
