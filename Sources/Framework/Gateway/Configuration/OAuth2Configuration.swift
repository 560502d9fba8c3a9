import UpstreamKit

/// An upstream's OAuth 2.0 client-credentials settings (RFC 6749 §4.4), from its
/// `UPSTREAM_{NAME}_OAUTH2_*` variables: the gateway fetches a token from `tokenURL`, caches it
/// until shortly before it expires, and sends it as `Authorization: Bearer` on every call.
struct OAuth2Configuration: Sendable, Equatable {
    let tokenURL: BaseURL
    let clientID: String
    let clientSecret: String
    let scope: String?

    /// The settings of `definition`, or nil when none of its OAuth2 variables is set.
    ///
    /// - Throws: when only some of the URL, client id and secret are set, when a bearer token is
    ///   set as well, or when a value is malformed.
    static func read(_ definition: UpstreamDefinition, reading reader: EnvironmentReader) throws(ConfigurationError) -> OAuth2Configuration? {
        let variables = ConfigurationVariable.oauth2(for: definition)
        let url = ConfigurationVariable.upstreamOAuth2TokenURL(definition)
        let id = ConfigurationVariable.upstreamOAuth2ClientID(definition)
        let secret = ConfigurationVariable.upstreamOAuth2ClientSecret(definition)
        let clientID = try reader.token(id), clientSecret = try reader.token(secret)
        guard variables.contains(where: { !reader.text($0).isEmpty }) else { return nil }
        for variable in [url, id, secret] where reader.text(variable).isEmpty {
            throw ConfigurationError(variable: variable.name, problem: "must be set along with the other OAuth2 variables of \(definition.name)")
        }
        let bearer = ConfigurationVariable.upstreamBearerToken(definition)
        guard reader.text(bearer).isEmpty else {
            throw ConfigurationError(variable: bearer.name, problem: "cannot be set along with OAuth2 client credentials")
        }
        let scope = ConfigurationVariable.upstreamOAuth2Scope(definition)
        let scopeText = reader.text(scope)
        guard scopeText.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw ConfigurationError(variable: scope.name, problem: "must be printable ASCII")
        }
        return OAuth2Configuration(
            tokenURL: try reader.baseURL(url), clientID: clientID ?? "", clientSecret: clientSecret ?? "",
            scope: scopeText.isEmpty ? nil : scopeText)
    }
}
