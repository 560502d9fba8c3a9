import Testing

@testable import BrowserSession

@Suite struct ProviderMetadataTests {
    static func document(issuer: String = "https://id.example", endpoints base: String = "https://id.example") -> [UInt8] {
        Array(
            #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token","jwks_uri":"\#(base)/jwks","end_session_endpoint":"\#(base)/logout","response_types_supported":["code"]}"#
                .utf8)
    }

    @Test func readsTheEndpointsOfItsIssuer() throws {
        let metadata = try ProviderMetadata(parsing: Self.document(), expectedIssuer: "https://id.example")
        #expect(metadata.tokenEndpoint == "https://id.example/token")
        #expect(metadata.endSessionEndpoint == "https://id.example/logout")
        #expect(metadata.revocationEndpoint == nil)
    }

    @Test func refusesAnotherIssuerEvenBySpelling() {
        #expect(throws: ProviderMetadata.Invalid.self) { try ProviderMetadata(parsing: Self.document(), expectedIssuer: "https://id.example/") }
        #expect(throws: ProviderMetadata.Invalid.self) {
            try ProviderMetadata(parsing: Self.document(issuer: "https://evil.example"), expectedIssuer: "https://id.example")
        }
    }

    @Test func httpOnlyOnLoopback() throws {
        #expect(throws: ProviderMetadata.Invalid.self) { try ProviderMetadata.checkIssuer("http://id.example") }
        #expect(throws: ProviderMetadata.Invalid.self) { try ProviderMetadata.checkIssuer("ftp://id.example") }
        #expect(throws: ProviderMetadata.Invalid.self) { try ProviderMetadata.checkIssuer("https://user:pw@id.example") }
        try ProviderMetadata.checkIssuer("http://127.0.0.1:9000/realms/x")
        try ProviderMetadata.checkIssuer("https://id.example")
        // An https issuer may not send the browser or the secret to plain http endpoints.
        #expect(throws: ProviderMetadata.Invalid.self) {
            try ProviderMetadata(parsing: Self.document(endpoints: "http://127.0.0.1:1"), expectedIssuer: "https://id.example")
        }
        let local = try ProviderMetadata(
            parsing: Self.document(issuer: "http://127.0.0.1:9000", endpoints: "http://127.0.0.1:9000"), expectedIssuer: "http://127.0.0.1:9000")
        #expect(local.keySetURL == "http://127.0.0.1:9000/jwks")
    }

    @Test func authenticationMethodsDefaultToBasic() throws {
        #expect(try ProviderMetadata(parsing: Self.document(), expectedIssuer: "https://id.example").tokenEndpointAuthenticationMethods == ["client_secret_basic"])
        var listed = Self.document()
        listed.removeLast()
        listed += Array(#","token_endpoint_auth_methods_supported":["private_key_jwt","client_secret_post"]}"#.utf8)
        #expect(try ProviderMetadata(parsing: listed, expectedIssuer: "https://id.example").tokenEndpointAuthenticationMethods == ["private_key_jwt", "client_secret_post"])
    }

    @Test func authorizationServerMetadataURLsInsertTheWellKnownSegment() {
        #expect(ProviderMetadata.authorizationServerMetadataURLs(of: "https://id.example") == ["https://id.example/.well-known/oauth-authorization-server"])
        #expect(ProviderMetadata.authorizationServerMetadataURLs(of: "https://id.example/") == ["https://id.example/.well-known/oauth-authorization-server"])
        #expect(ProviderMetadata.authorizationServerMetadataURLs(of: "https://id.example/tenant/o") == [
            "https://id.example/.well-known/oauth-authorization-server/tenant/o", "https://id.example/tenant/o/.well-known/oauth-authorization-server",
        ])
    }

    @Test func revocationEndpointOfTheSameIssuerOnly() throws {
        let document = Array(#"{"issuer":"https://id.example/o","revocation_endpoint":"https://id.example/o/revoke_token/"}"#.utf8)
        #expect(try ProviderMetadata.revocationEndpoint(parsing: document, issuer: "https://id.example/o") == "https://id.example/o/revoke_token/")
        #expect(throws: ProviderMetadata.Invalid.self) { try ProviderMetadata.revocationEndpoint(parsing: document, issuer: "https://id.example") }
        #expect(try ProviderMetadata.revocationEndpoint(parsing: Array(#"{"issuer":"https://id.example"}"#.utf8), issuer: "https://id.example") == nil)
        let plain = Array(#"{"issuer":"https://id.example","revocation_endpoint":"http://id.example/revoke"}"#.utf8)
        #expect(throws: ProviderMetadata.Invalid.self) { try ProviderMetadata.revocationEndpoint(parsing: plain, issuer: "https://id.example") }
        #expect(throws: ProviderMetadata.Invalid.self) { try ProviderMetadata.revocationEndpoint(parsing: Array("[]".utf8), issuer: "https://id.example") }
    }

    @Test func discoveryURL() {
        #expect(ProviderMetadata.discoveryURL(of: "https://id.example/") == "https://id.example/.well-known/openid-configuration")
        #expect(ProviderMetadata.discoveryURL(of: "https://id.example/o") == "https://id.example/o/.well-known/openid-configuration")
    }
}

@Suite struct TokenEndpointTests {
    @Test func basicAuthenticationFormEncodesThenBase64() {
        let client = TokenEndpoint(clientID: "app one", credential: .secretBasic("s:3cr/t"))
        let request = client.request(
            .codeExchange(code: "c0de", codeVerifier: "v", redirectURI: "https://app.example/bff/callback"), audience: "https://id.example/token", now: 0)
        #expect(String(decoding: request.body, as: UTF8.self)
            == "grant_type=authorization_code&code=c0de&redirect_uri=https%3A%2F%2Fapp.example%2Fbff%2Fcallback&code_verifier=v")
        // base64("app%20one:s%3A3cr%2Ft")
        #expect(request.headers.contains { $0.name == "Authorization" && $0.value == "Basic YXBwJTIwb25lOnMlM0EzY3IlMkZ0" })
    }

    @Test func postAuthenticationPutsTheSecretInTheBody() {
        let client = TokenEndpoint(clientID: "app", credential: .secretPost("pw"))
        let request = client.request(.refresh("r1"), audience: "https://id.example/token", now: 0)
        #expect(String(decoding: request.body, as: UTF8.self) == "grant_type=refresh_token&refresh_token=r1&client_id=app&client_secret=pw")
        #expect(!request.headers.contains { $0.name == "Authorization" })
        let basic = TokenEndpoint(clientID: "a", credential: .secretBasic("b"))
        #expect(String(decoding: basic.request(.revocation(of: "r1"), audience: "https://id.example/token", now: 0).body, as: UTF8.self)
            == "token=r1&token_type_hint=refresh_token")
    }

    @Test func base64Padding() {
        #expect(TokenEndpoint.base64(Array("a".utf8)) == "YQ==")
        #expect(TokenEndpoint.base64(Array("ab".utf8)) == "YWI=")
        #expect(TokenEndpoint.base64(Array("abc".utf8)) == "YWJj")
    }

    @Test func readsTokensAndRefusesErrors() throws {
        let tokens = try TokenEndpoint.tokens(
            status: 200, body: Array(#"{"access_token":"at1","token_type":"bearer","expires_in":300,"refresh_token":"rt1","id_token":"x.y.z"}"#.utf8))
        #expect(tokens == TokenEndpoint.Tokens(accessToken: "at1", expiresIn: 300, refreshToken: "rt1", idToken: "x.y.z"))
        #expect(throws: TokenEndpoint.Failure(description: "the token endpoint answered 400 (invalid_grant)")) {
            try TokenEndpoint.tokens(status: 400, body: Array(#"{"error":"invalid_grant","error_description":"<script>"}"#.utf8))
        }
        #expect(throws: TokenEndpoint.Failure.self) { try TokenEndpoint.tokens(status: 200, body: Array(#"{"access_token":"a b","token_type":"Bearer"}"#.utf8)) }
        #expect(throws: TokenEndpoint.Failure.self) { try TokenEndpoint.tokens(status: 200, body: Array(#"{"access_token":"ab","token_type":"mac"}"#.utf8)) }
        #expect(throws: TokenEndpoint.Failure.self) { try TokenEndpoint.tokens(status: 200, body: Array("not json".utf8)) }
    }
}
