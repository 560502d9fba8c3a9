extension ConfigurationVariable {
    static let crossOriginAllowedOrigins = ConfigurationVariable(
        "CORS_ALLOWED_ORIGINS", default: "",
        "origins whose pages may read the gateway's answers (CORS): scheme://host[:port] separated by commas, or *; "
            + "unset: no CORS fields and no preflights answered (docs/SECURITY.md)")
    static let crossOriginAllowedHeaders = ConfigurationVariable(
        "CORS_ALLOWED_HEADERS", default: "Authorization, Content-Type, X-Request-ID, traceparent, tracestate",
        "request fields a page may send beyond the safelisted ones, separated by commas, or * for whatever a preflight asks")
    static let crossOriginAllowCredentials = ConfigurationVariable(
        "CORS_ALLOW_CREDENTIALS", default: "off", "on: pages may send cookies and HTTP authentication and read the answer; not with origins *")
    static let crossOriginExposedHeaders = ConfigurationVariable(
        "CORS_EXPOSED_HEADERS", default: "X-Request-ID, X-Gateway-Completed, RateLimit, RateLimit-Policy, Retry-After",
        "answer fields a page's script may read beyond the safelisted ones, separated by commas; empty for none")
    static let crossOriginMaxAge = ConfigurationVariable(
        "CORS_MAX_AGE_MS", default: "600000", "how long a browser may reuse a preflight's answer; a multiple of 1000, as browsers count seconds (and cap it)")

    /// The CORS variables, in the order `--help` lists them.
    static let crossOrigin: [ConfigurationVariable] = [
        crossOriginAllowedOrigins, crossOriginAllowedHeaders, crossOriginAllowCredentials, crossOriginExposedHeaders, crossOriginMaxAge,
    ]
}
