/// What a route asks of its callers when the gateway has a key set (`AUTH_JWKS_FILE` or
/// `AUTH_JWKS_URL`); without one no route asks anything.
///
/// ```swift
/// extension Endpoint {
///     static let menu = Endpoint(
///         "/v1/menu", summary: "Today's menu", authentication: .required(scopes: ["menu:read"]), upstreams: [.kitchen],
///         example: Menu.example
///     ) { call in
///         try await call.upstream(.kitchen).get("menu", as: Menu.self)
///     }
/// }
/// ```
public struct Authentication: Sendable, Hashable {
    /// Whether a valid bearer token is required.
    public let requiresToken: Bool
    /// The scopes the token must grant, every one of them (its `scope` claim split at spaces, or
    /// its `scp` array); empty when any valid token will do.
    public let scopes: [String]

    private init(requiresToken: Bool, scopes: [String]) {
        self.requiresToken = requiresToken
        self.scopes = scopes
    }

    /// A valid `Authorization: Bearer <JWT>` (the default), or, when browsers sign in (`OIDC_ISSUER`),
    /// a live session with its CSRF header; the handler reads either as `call.identity`.
    public static let required = Authentication(requiresToken: true, scopes: [])

    /// Anyone may call it; `call.identity` is nil.
    public static let none = Authentication(requiresToken: false, scopes: [])

    /// A valid bearer token that grants every one of `scopes`; a valid token that lacks one is
    /// refused with 403 and `WWW-Authenticate: Bearer error="insufficient_scope"`. Each scope is
    /// an RFC 6749 scope token (printable ASCII without spaces, `"` or `\`), which the catalog check
    /// verifies.
    public static func required(scopes: [String]) -> Authentication {
        Authentication(requiresToken: true, scopes: scopes)
    }

    /// What is wrong with the scopes, for the catalog check; nil when each is a scope token.
    var problem: String? {
        guard let invalid = scopes.first(where: { !Self.isScopeToken($0) }) else { return nil }
        return "scope \(invalid.debugDescription) is not a scope token (printable ASCII without spaces, quotes or backslashes)"
    }

    /// RFC 6749 §3.3: `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`.
    static func isScopeToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
