extension ConfigurationVariable {
    static let authenticationKeySetFile = ConfigurationVariable(
        "AUTH_JWKS_FILE", default: "",
        "JWK Set file read at start-up; with it every route requires Authorization: Bearer <JWT> unless it declares otherwise "
            + "(docs/SECURITY.md)")
    static let authenticationKeySetURL = ConfigurationVariable(
        "AUTH_JWKS_URL", default: "",
        "JWK Set URL fetched at start-up and refreshed as its Cache-Control says; instead of AUTH_JWKS_FILE")
    static let authenticationIssuer = ConfigurationVariable(
        "AUTH_ISSUER", default: "", "the iss every token must have; required with a key set")
    static let authenticationAudience = ConfigurationVariable(
        "AUTH_AUDIENCE", default: "", "an audience every token's aud must contain, and the realm of WWW-Authenticate; required with a key set")
    static let authenticationLeeway = ConfigurationVariable(
        "AUTH_LEEWAY_MS", default: "60000", "how far a token's exp and nbf may be off, for clocks that disagree")
    static let authenticationMaximumTokenBytes = ConfigurationVariable(
        "AUTH_MAX_TOKEN_BYTES", default: "8192", "longest bearer token read; longer ones are refused unread")
    static let authenticationKeySetRefresh = ConfigurationVariable(
        "AUTH_JWKS_REFRESH_MS", default: "300000", "how long a fetched key set is used when its answer gives no max-age")
    static let authenticationKeySetMinimumRefresh = ConfigurationVariable(
        "AUTH_JWKS_MIN_REFRESH_MS", default: "30000",
        "least time between two fetches of the key set for tokens naming an unknown kid, and after a failed fetch")

    /// The client-authentication variables, in the order `--help` lists them.
    static let authentication: [ConfigurationVariable] = [
        authenticationKeySetFile, authenticationKeySetURL, authenticationIssuer, authenticationAudience, authenticationLeeway,
        authenticationMaximumTokenBytes, authenticationKeySetRefresh, authenticationKeySetMinimumRefresh,
    ]
}
