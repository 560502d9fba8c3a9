import BrowserSession
import Foundation
import NetworkRuntime
import UpstreamKit

/// The backend-for-frontend sign-in's settings, from the `OIDC_*`, `BFF_*` and `SESSION_*` variables:
/// nil when `OIDC_ISSUER` is unset (no sign-in endpoints, no sessions).
struct BrowserSignInConfiguration: Sendable {
    let issuer: String
    /// `issuer` parsed, for the pooled client's connections to the provider.
    let issuerURL: BaseURL
    let client: TokenEndpoint
    let redirectURI: String
    let scopes: [String]
    let postLogoutRedirectURI: String
    /// How calls to an `https` provider verify it: the system's trust, or `OIDC_CA_FILE`.
    let tls: TLSContext?
    let timeout: Duration
    let refreshSkew: Duration
    /// `/bff` by default, without a trailing `/`.
    let pathPrefix: String
    let returnURLs: ReturnURLPolicy
    let csrfHeader: CSRFHeader
    let cookie: SessionCookie
    let lifetimes: SessionTable<SessionRecord>.Lifetimes
    let maximumSessions: Int
    /// Seals sessions for a store the replicas share; nil without `SESSION_ENCRYPTION_KEY`.
    let sealer: SessionSealer?

    static func read(_ reader: EnvironmentReader) throws(ConfigurationError) -> BrowserSignInConfiguration? {
        let issuer = reader.text(.openIDIssuer)
        guard !issuer.isEmpty else {
            for variable in ConfigurationVariable.browserSignIn where reader.environment[variable.name] != nil {
                throw ConfigurationError(variable: variable.name, problem: "needs OIDC_ISSUER, the provider browsers sign in with")
            }
            return nil
        }
        let issuerURL: BaseURL
        do {
            try ProviderMetadata.checkIssuer(issuer)
            issuerURL = try BaseURL(issuer)
        } catch {
            throw ConfigurationError(
                variable: ConfigurationVariable.openIDIssuer.name,
                problem: "must be an https URL without credentials, query or fragment (http only on loopback: localhost, 127.x, [::1])")
        }
        guard let clientID = try reader.token(.openIDClientID) else {
            throw ConfigurationError(variable: ConfigurationVariable.openIDClientID.name, problem: "must be set along with OIDC_ISSUER")
        }
        let client = try client(clientID, reader)
        let prefix = reader.text(.bffPathPrefix)
        guard prefix.hasPrefix("/"), !prefix.hasSuffix("/"), prefix.utf8.allSatisfy({ PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "/") })
        else {
            throw ConfigurationError(
                variable: ConfigurationVariable.bffPathPrefix.name, problem: "must be a path such as /bff: a leading /, no trailing /, unreserved characters")
        }
        let redirectURI = reader.text(.openIDRedirectURI)
        let redirect: BaseURL
        do {
            redirect = try BaseURL(redirectURI)
        } catch {
            throw ConfigurationError(
                variable: ConfigurationVariable.openIDRedirectURI.name, problem: "must be the absolute URL of \(prefix)/callback (\(error.reason))")
        }
        guard redirect.pathPrefix == prefix + "/callback" else {
            throw ConfigurationError(
                variable: ConfigurationVariable.openIDRedirectURI.name, problem: "must end in \(prefix)/callback, where the gateway takes the callback")
        }
        var postLogout = reader.text(.openIDPostLogoutRedirectURI)
        if postLogout.isEmpty { postLogout = redirect.origin.description + "/" }
        let scopes = reader.text(.openIDScopes).split(separator: " ").map(String.init)
        guard scopes.allSatisfy(Authentication.isScopeToken) else {
            throw ConfigurationError(variable: ConfigurationVariable.openIDScopes.name, problem: "must be scope tokens separated by spaces")
        }
        let origins = reader.text(.bffReturnURLOrigins).split(separator: ",").map { String($0.trimmingWhitespace) }
        for origin in origins where ReturnURLPolicy.origin(of: origin) != origin.lowercased() {
            throw ConfigurationError(
                variable: ConfigurationVariable.bffReturnURLOrigins.name, problem: "entries must be origins such as https://app.example, without a path")
        }
        guard let csrfHeader = CSRFHeader(name: reader.text(.bffCSRFHeader)) else {
            throw ConfigurationError(variable: ConfigurationVariable.bffCSRFHeader.name, problem: "must be a header field name")
        }
        let sameSite: SessionCookie.SameSite = try reader.choice(.sessionCookieSameSite, from: ["lax", "strict"]) == "lax" ? .lax : .strict
        let tls = try reader.clientTLS(for: issuerURL, authorities: .openIDCAFile, of: "an https OIDC_ISSUER")
        let idle = try reader.milliseconds(.sessionIdleTimeout, in: 1000...(30 * 86_400_000))
        let absolute = try reader.milliseconds(.sessionAbsoluteTimeout, in: 1000...(365 * 86_400_000))
        return BrowserSignInConfiguration(
            issuer: issuer, issuerURL: issuerURL,
            client: client,
            redirectURI: redirectURI, scopes: scopes, postLogoutRedirectURI: postLogout, tls: tls,
            timeout: try reader.milliseconds(.openIDTimeout, in: 100...120_000),
            refreshSkew: try reader.milliseconds(.openIDRefreshSkew, in: 0...3_600_000),
            pathPrefix: prefix, returnURLs: ReturnURLPolicy(allowedOrigins: Set(origins)), csrfHeader: csrfHeader,
            cookie: SessionCookie(suffix: "bff-session", sameSite: sameSite)!,
            lifetimes: .init(idle: idle.seconds, absolute: absolute.seconds),
            maximumSessions: try reader.integer(.sessionMaximumCount, in: 1...10_000_000),
            sealer: try sealer(reader))
    }

    /// The client `clientID` and how it proves itself: `OIDC_CLIENT_AUTH`, with the secret or the
    /// private key that method needs and not the other.
    private static func client(_ clientID: String, _ reader: EnvironmentReader) throws(ConfigurationError) -> TokenEndpoint {
        let secret = try reader.token(.openIDClientSecret)
        let keyFile = reader.path(.openIDClientPrivateKeyFile)
        let keyID = try reader.token(.openIDClientKeyID)
        let methods = TokenEndpoint.ClientAuthentication.allCases.map(\.rawValue)
        let method: TokenEndpoint.ClientAuthentication
        if reader.text(.openIDClientAuthentication).isEmpty {
            method = keyFile == nil ? .clientSecretBasic : .privateKeyJWT
        } else {
            method = TokenEndpoint.ClientAuthentication(rawValue: try reader.choice(.openIDClientAuthentication, from: methods))!
        }
        guard method == .privateKeyJWT else {
            for (variable, value) in [(ConfigurationVariable.openIDClientPrivateKeyFile, keyFile), (.openIDClientKeyID, keyID)] where value != nil {
                throw ConfigurationError(variable: variable.name, problem: "goes with OIDC_CLIENT_AUTH=private_key_jwt, not \(method.rawValue)")
            }
            guard let secret else {
                throw ConfigurationError(variable: ConfigurationVariable.openIDClientSecret.name, problem: "must be set along with OIDC_ISSUER")
            }
            return TokenEndpoint(clientID: clientID, credential: method == .clientSecretPost ? .secretPost(secret) : .secretBasic(secret))
        }
        guard secret == nil else {
            throw ConfigurationError(variable: ConfigurationVariable.openIDClientSecret.name, problem: "cannot be set along with private_key_jwt: no secret is sent")
        }
        guard let keyFile else {
            throw ConfigurationError(variable: ConfigurationVariable.openIDClientPrivateKeyFile.name, problem: "must be set for private_key_jwt")
        }
        // The file's bytes stay in this function: no error quotes them.
        guard let pem = FileManager.default.contents(atPath: keyFile) else {
            throw ConfigurationError(variable: ConfigurationVariable.openIDClientPrivateKeyFile.name, problem: "cannot be read")
        }
        do {
            return TokenEndpoint(clientID: clientID, credential: .privateKeyJWT(try ClientAssertion(pem: [UInt8](pem), keyID: keyID)))
        } catch {
            throw ConfigurationError(variable: ConfigurationVariable.openIDClientPrivateKeyFile.name, problem: error.description)
        }
    }

    /// The sealer of `SESSION_ENCRYPTION_KEY` and `SESSION_ENCRYPTION_KEY_PREVIOUS`; nil without the first.
    private static func sealer(_ reader: EnvironmentReader) throws(ConfigurationError) -> SessionSealer? {
        func key(_ variable: ConfigurationVariable) throws(ConfigurationError) -> SessionSealer.Key? {
            guard let text = try reader.token(variable) else { return nil }
            do {
                return try SessionSealer.Key(parsing: text)
            } catch {
                throw ConfigurationError(variable: variable.name, problem: error.description)
            }
        }
        let previous = try key(.sessionPreviousEncryptionKey)
        guard let current = try key(.sessionEncryptionKey) else {
            guard previous == nil else {
                throw ConfigurationError(variable: ConfigurationVariable.sessionPreviousEncryptionKey.name, problem: "needs SESSION_ENCRYPTION_KEY")
            }
            return nil
        }
        return SessionSealer(current: current, previous: previous)
    }
}
