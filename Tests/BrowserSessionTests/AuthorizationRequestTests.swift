import Testing

@testable import BrowserSession

@Suite struct AuthorizationRequestTests {
    @Test func theURLCarriesTheFlowsParametersEncoded() {
        let request = AuthorizationRequest(
            endpoint: "https://id.example/authorize", clientID: "app", redirectURI: "https://app.example/bff/callback", scopes: ["profile"])
        let signIn = PendingSignIn(
            state: "s", nonce: "n", codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", returnURL: "/", deadline: 0)
        #expect(
            request.url(for: signIn)
                == "https://id.example/authorize?response_type=code&client_id=app&redirect_uri=https%3A%2F%2Fapp.example%2Fbff%2Fcallback"
                + "&scope=openid%20profile&state=s&nonce=n&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256")
    }
}
