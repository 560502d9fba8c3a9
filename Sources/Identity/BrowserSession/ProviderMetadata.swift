import JSONCoding
import UpstreamKit

/// What an OpenID provider says about itself at `{issuer}/.well-known/openid-configuration`
/// (OpenID Connect Discovery 1.0 §3, §4), checked as §4.3 asks: its `issuer` must equal the configured
/// one exactly, and every endpoint must be `https` (or `http` on loopback, for an `http` loopback issuer).
public struct ProviderMetadata: Sendable, Equatable {
    /// Why a discovery document or an issuer was refused; the description names the field, never a secret.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// `issuer`, equal to the configured one.
    public let issuer: String
    /// Where the browser is sent to sign in.
    public let authorizationEndpoint: String
    /// Where codes and refresh tokens are exchanged for tokens.
    public let tokenEndpoint: String
    /// The provider's signing keys, for ID tokens.
    public let keySetURL: String
    /// Where the browser is sent to sign out at the provider (RP-Initiated Logout 1.0), if it has one.
    public let endSessionEndpoint: String?
    /// Where refresh tokens are revoked (RFC 7009), if it has one: from discovery, or set from
    /// RFC 8414's document (`revocationEndpoint(parsing:issuer:)`) when discovery names none.
    public var revocationEndpoint: String?
    /// `token_endpoint_auth_methods_supported`: how clients may prove themselves at the token
    /// endpoint; `client_secret_basic` alone when the document is silent (Discovery 1.0 §3).
    public let tokenEndpointAuthenticationMethods: [String]
    /// `token_endpoint_auth_signing_alg_values_supported`: the algorithms a `private_key_jwt`
    /// assertion may be signed with; nil when the document is silent (any the provider takes).
    public let tokenEndpointSigningAlgorithms: [String]?

    /// The largest discovery document read.
    public static let maximumBytes = 256 << 10

    /// The discovery URL of `issuer`: the issuer without its trailing `/`, then `/.well-known/openid-configuration`.
    public static func discoveryURL(of issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }

    /// Checks `issuer` as a configured value: an absolute `https` URL without query, fragment or
    /// credentials, or `http` only when its host is loopback (a provider on the same machine, in tests).
    public static func checkIssuer(_ issuer: String) throws(Invalid) {
        try checkEndpoint(issuer, named: "the issuer", allowingLoopbackHTTP: true)
    }

    /// Reads a discovery document, requiring `issuer` to be `expectedIssuer` exactly.
    public init(parsing bytes: [UInt8], expectedIssuer: String) throws(Invalid) {
        struct Document: Decodable {
            var issuer: String?
            var authorization_endpoint: String?
            var token_endpoint: String?
            var jwks_uri: String?
            var end_session_endpoint: String?
            var revocation_endpoint: String?
            var token_endpoint_auth_methods_supported: [String]?
            var token_endpoint_auth_signing_alg_values_supported: [String]?
        }
        guard bytes.count <= Self.maximumBytes else { throw Invalid(description: "the discovery document is larger than \(Self.maximumBytes) bytes") }
        let document: Document
        do {
            document = try JSONByteDecoder().decode(Document.self, from: bytes)
        } catch {
            throw Invalid(description: "the discovery document is not a JSON object of string fields: \(error)")
        }
        guard document.issuer == expectedIssuer else {
            throw Invalid(description: "the discovery document's issuer differs from the configured one")
        }
        let loopback = Self.isLoopbackHTTP(expectedIssuer)
        func required(_ value: String?, _ name: String) throws(Invalid) -> String {
            guard let value else { throw Invalid(description: "the discovery document has no \(name)") }
            try Self.checkEndpoint(value, named: name, allowingLoopbackHTTP: loopback)
            return value
        }
        func optional(_ value: String?, _ name: String) throws(Invalid) -> String? {
            guard let value else { return nil }
            return try required(value, name)
        }
        issuer = expectedIssuer
        authorizationEndpoint = try required(document.authorization_endpoint, "authorization_endpoint")
        tokenEndpoint = try required(document.token_endpoint, "token_endpoint")
        keySetURL = try required(document.jwks_uri, "jwks_uri")
        endSessionEndpoint = try optional(document.end_session_endpoint, "end_session_endpoint")
        revocationEndpoint = try optional(document.revocation_endpoint, "revocation_endpoint")
        tokenEndpointAuthenticationMethods = document.token_endpoint_auth_methods_supported ?? ["client_secret_basic"]
        tokenEndpointSigningAlgorithms = document.token_endpoint_auth_signing_alg_values_supported
    }

    /// Why `client` cannot prove itself at this provider's token endpoint: its method is not in
    /// `token_endpoint_auth_methods_supported`, or its assertions' algorithm not in
    /// `token_endpoint_auth_signing_alg_values_supported`; nil when it can.
    public func refusal(of client: TokenEndpoint) -> String? {
        let method = client.authentication.rawValue
        guard tokenEndpointAuthenticationMethods.contains(method) else {
            return "is \(method), which the provider's token_endpoint_auth_methods_supported does not list ("
                + tokenEndpointAuthenticationMethods.joined(separator: ", ") + ")"
        }
        if let algorithm = client.assertionAlgorithm, let algorithms = tokenEndpointSigningAlgorithms, !algorithms.contains(algorithm) {
            return "is private_key_jwt with an \(algorithm) key, which the provider's token_endpoint_auth_signing_alg_values_supported does not list ("
                + algorithms.joined(separator: ", ") + ")"
        }
        return nil
    }

    /// Where RFC 8414 §3.1 puts the OAuth 2.0 authorization server metadata of `issuer`: the
    /// well-known segment between the host and the issuer's path, then (as providers that serve it
    /// under their path do, django-oauth-toolkit among them) after the path; one URL for an issuer without a path.
    public static func authorizationServerMetadataURLs(of issuer: String) -> [String] {
        let wellKnown = "/.well-known/oauth-authorization-server"
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let parsed = try? BaseURL(trimmed), !parsed.pathPrefix.isEmpty, parsed.pathPrefix != "/" else { return [trimmed + wellKnown] }
        return [parsed.origin.description + wellKnown + parsed.pathPrefix, trimmed + wellKnown]
    }

    /// The `revocation_endpoint` of an RFC 8414 metadata document, nil when it names none; the
    /// document's `issuer` must be `issuer` exactly (RFC 8414 §3.3), as discovery's must.
    public static func revocationEndpoint(parsing bytes: [UInt8], issuer: String) throws(Invalid) -> String? {
        struct Document: Decodable {
            var issuer: String?
            var revocation_endpoint: String?
        }
        guard bytes.count <= Self.maximumBytes else { throw Invalid(description: "the metadata document is larger than \(Self.maximumBytes) bytes") }
        guard let document = try? JSONByteDecoder().decode(Document.self, from: bytes) else {
            throw Invalid(description: "the authorization server metadata is not a JSON object with string issuer and revocation_endpoint")
        }
        guard document.issuer == issuer else { throw Invalid(description: "the authorization server metadata's issuer differs from the configured one") }
        guard let endpoint = document.revocation_endpoint else { return nil }
        try checkEndpoint(endpoint, named: "revocation_endpoint", allowingLoopbackHTTP: isLoopbackHTTP(issuer))
        return endpoint
    }

    /// Metadata given field by field (a provider without discovery, or a test).
    public init(
        issuer: String, authorizationEndpoint: String, tokenEndpoint: String, keySetURL: String, endSessionEndpoint: String? = nil,
        revocationEndpoint: String? = nil, tokenEndpointAuthenticationMethods: [String] = ["client_secret_basic"]
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.keySetURL = keySetURL
        self.endSessionEndpoint = endSessionEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.tokenEndpointAuthenticationMethods = tokenEndpointAuthenticationMethods
        tokenEndpointSigningAlgorithms = nil
    }

    private static func checkEndpoint(_ url: String, named name: String, allowingLoopbackHTTP: Bool) throws(Invalid) {
        let parsed: BaseURL
        do {
            parsed = try BaseURL(url)
        } catch {
            throw Invalid(description: "\(name) is not an absolute URL without credentials, query or fragment (\(error.reason))")
        }
        guard parsed.origin.scheme == "https" || (allowingLoopbackHTTP && isLoopback(parsed.origin.host)) else {
            throw Invalid(description: "\(name) must be https (http only on loopback: localhost, 127.0.0.1, [::1])")
        }
    }

    /// Whether `url` is an `http` URL on loopback.
    static func isLoopbackHTTP(_ url: String) -> Bool {
        guard let parsed = try? BaseURL(url) else { return false }
        return parsed.origin.scheme == "http" && isLoopback(parsed.origin.host)
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
