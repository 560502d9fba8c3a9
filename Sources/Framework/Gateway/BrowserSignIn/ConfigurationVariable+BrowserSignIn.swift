extension ConfigurationVariable {
    static let openIDIssuer = ConfigurationVariable(
        "OIDC_ISSUER", default: "",
        "OpenID provider the browser signs in with (backend-for-frontend, docs/SECURITY.md); discovery at "
            + "{issuer}/.well-known/openid-configuration; https, or http on loopback only")
    static let openIDClientID = ConfigurationVariable("OIDC_CLIENT_ID", default: "", "this gateway's client_id at the provider; required with OIDC_ISSUER")
    static let openIDClientSecret = ConfigurationVariable(
        "OIDC_CLIENT_SECRET", default: "", "this gateway's client secret at the provider; required with OIDC_ISSUER unless OIDC_CLIENT_PRIVATE_KEY_FILE is set",
        isSecret: true)
    static let openIDClientPrivateKeyFile = ConfigurationVariable(
        "OIDC_CLIENT_PRIVATE_KEY_FILE", default: "",
        "unencrypted PEM private key (RSA of 2048 bits or more: RS256; RSA-PSS: PS256; EC P-256: ES256) signing private_key_jwt client assertions, instead of a secret",
        isSecret: true)
    static let openIDClientKeyID = ConfigurationVariable(
        "OIDC_CLIENT_KEY_ID", default: "", "the kid of OIDC_CLIENT_PRIVATE_KEY_FILE's key in the client's key set at the provider; no kid when unset")
    static let openIDClientAuthentication = ConfigurationVariable(
        "OIDC_CLIENT_AUTH", default: "",
        "how the client proves itself to the token and revocation endpoints: client_secret_basic, client_secret_post or private_key_jwt; "
            + "by default private_key_jwt with OIDC_CLIENT_PRIVATE_KEY_FILE, else client_secret_basic")
    static let openIDCAFile = ConfigurationVariable(
        "OIDC_CA_FILE", default: "", "PEM certificate authorities an https provider's certificate is checked against, instead of the system's")
    static let openIDRedirectURI = ConfigurationVariable(
        "OIDC_REDIRECT_URI", default: "",
        "the callback URL registered at the provider, the gateway's public {BFF_PATH_PREFIX}/callback; required with OIDC_ISSUER")
    static let openIDScopes = ConfigurationVariable(
        "OIDC_SCOPES", default: "openid profile", "scopes asked at sign-in, separated by spaces (openid is always asked; offline_access for refresh tokens at some providers)")
    static let openIDPostLogoutRedirectURI = ConfigurationVariable(
        "OIDC_POST_LOGOUT_REDIRECT_URI", default: "", "where the provider sends the browser after logout; by default / of OIDC_REDIRECT_URI's origin")
    static let openIDTimeout = ConfigurationVariable(
        "OIDC_TIMEOUT_MS", default: "5000", "timeout of one call to the provider (discovery, keys, token, revocation)")
    static let openIDRefreshSkew = ConfigurationVariable(
        "OIDC_REFRESH_SKEW_MS", default: "30000", "a user's access token this close to its expiry is refreshed before a call")
    static let bffPathPrefix = ConfigurationVariable(
        "BFF_PATH_PREFIX", default: "/bff", "where the sign-in endpoints are served: {prefix}/login, /callback, /user, /logout")
    static let bffReturnURLOrigins = ConfigurationVariable(
        "BFF_RETURN_URL_ORIGINS", default: "",
        "origins (https://app.example) whose absolute URLs login's returnUrl may name, separated by commas; by default paths on this origin only")
    static let bffCSRFHeader = ConfigurationVariable(
        "BFF_CSRF_HEADER", default: "X-CSRF", "header every API request on a session must carry with the value 1; answered 403 without it")
    static let sessionCookieSameSite = ConfigurationVariable(
        "SESSION_COOKIE_SAMESITE", default: "lax", "SameSite of the __Host-bff-session cookie: lax or strict")
    static let sessionIdleTimeout = ConfigurationVariable(
        "SESSION_IDLE_TIMEOUT_MS", default: "1800000", "a session without a request for this long ends")
    static let sessionAbsoluteTimeout = ConfigurationVariable(
        "SESSION_ABSOLUTE_TIMEOUT_MS", default: "43200000", "a session ends this long after sign-in however busy it is")
    static let sessionMaximumCount = ConfigurationVariable(
        "SESSION_MAX_PER_REPLICA", default: "100000", "sessions one replica keeps in memory; past them the least recently used ends")

    static let sessionEncryptionKey = ConfigurationVariable(
        "SESSION_ENCRYPTION_KEY", default: "",
        "32 bytes in base64 (openssl rand -base64 32) sealing sessions kept in Redis (AES-256-GCM); required with OIDC_ISSUER and REDIS_URL",
        isSecret: true)
    static let sessionPreviousEncryptionKey = ConfigurationVariable(
        "SESSION_ENCRYPTION_KEY_PREVIOUS", default: "",
        "the key before SESSION_ENCRYPTION_KEY, still opening the sessions it sealed while the key rotates", isSecret: true)

    /// The sign-in variables, in the order `--help` lists them.
    static let browserSignIn: [ConfigurationVariable] = [
        openIDIssuer, openIDClientID, openIDClientSecret, openIDClientPrivateKeyFile, openIDClientKeyID, openIDClientAuthentication, openIDCAFile,
        openIDRedirectURI, openIDScopes, openIDPostLogoutRedirectURI,
        openIDTimeout, openIDRefreshSkew, bffPathPrefix, bffReturnURLOrigins, bffCSRFHeader, sessionCookieSameSite, sessionIdleTimeout,
        sessionAbsoluteTimeout, sessionMaximumCount, sessionEncryptionKey, sessionPreviousEncryptionKey,
    ]
}
