import UpstreamKit

/// The URL the browser is sent to at sign-in: the authorization code flow with PKCE S256 (RFC 6749 §4.1,
/// RFC 7636, OpenID Connect Core §3.1.2.1).
public struct AuthorizationRequest: Sendable, Equatable {
    /// The provider's `authorization_endpoint`, from discovery.
    public var endpoint: String
    /// This client's `client_id`.
    public var clientID: String
    /// The callback URL registered at the provider (`OIDC_REDIRECT_URI`).
    public var redirectURI: String
    /// The scopes asked for; `openid` is added when missing.
    public var scopes: [String]

    /// A request to `endpoint` for `clientID`, answered at `redirectURI`, asking for `scopes`.
    public init(endpoint: String, clientID: String, redirectURI: String, scopes: [String]) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes.contains("openid") ? scopes : ["openid"] + scopes
    }

    /// The URL that starts `signIn`: its `state`, `nonce` and the S256 challenge of its verifier.
    public func url(for signIn: PendingSignIn) -> String {
        let parameters = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", scopes.joined(separator: " ")), ("state", signIn.state), ("nonce", signIn.nonce),
            ("code_challenge", ProofKey.challenge(of: signIn.codeVerifier)), ("code_challenge_method", "S256"),
        ]
        let query = parameters.map { "\($0.0)=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

    /// `text` percent-encoded but for RFC 3986's unreserved characters, so it is one query value.
    package static func formEncoded(_ text: String) -> String {
        var output: [UInt8] = []
        PercentEncoding.append(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
