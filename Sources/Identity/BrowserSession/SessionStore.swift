/// What the gateway keeps on the server for one signed-in browser: the user's tokens never leave it.
///
/// Times are seconds since 1970 (the clock is an argument everywhere, so policy is tested without waiting).
public struct SessionRecord: Sendable, Equatable {
    /// The opaque, random id the browser holds in its session cookie.
    public var id: String
    /// The ID token's `sub`.
    public var subject: String
    /// The ID token's `sid`, when the provider sends one (back-channel logout names sessions by it).
    public var providerSessionID: String?
    /// The ID token's claims as the JSON object it carried, for `auth.*` and the user endpoint.
    public var claimsJSON: String
    /// The ID token as received, for the provider's end-session endpoint (`id_token_hint`).
    public var idToken: String
    /// The user's access token, attached to calls of upstreams that take it.
    public var accessToken: String
    /// When the access token expires, if the provider said (`expires_in`).
    public var accessTokenExpiresAt: Double?
    /// The refresh token, if the provider issued one.
    public var refreshToken: String?
    /// When the user signed in; the absolute lifetime counts from here.
    public var createdAt: Double
    /// The last request on this session; the idle lifetime counts from here.
    public var lastSeenAt: Double

    /// A record of every field.
    public init(
        id: String, subject: String, providerSessionID: String?, claimsJSON: String, idToken: String,
        accessToken: String, accessTokenExpiresAt: Double?, refreshToken: String?, createdAt: Double, lastSeenAt: Double
    ) {
        self.id = id
        self.subject = subject
        self.providerSessionID = providerSessionID
        self.claimsJSON = claimsJSON
        self.idToken = idToken
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// Where sessions live: this replica's memory, or a store every replica shares (Redis, sealed).
///
/// Implementations enforce the idle and absolute lifetimes they were made with: an ended session is
/// never returned.
public protocol SessionStore: Sendable {
    /// The live session under `id` at `now`, which counts as a use (it moves `lastSeenAt`); nil when none or ended.
    func session(_ id: String, now: Double) async throws -> SessionRecord?
    /// Keeps a new session.
    func insert(_ record: SessionRecord) async throws
    /// Replaces a session's tokens after a refresh, keeping its lifetimes; false when it has ended meanwhile.
    func update(_ record: SessionRecord) async throws -> Bool
    /// Ends one session (logout); the record it held, if any.
    func remove(_ id: String) async throws -> SessionRecord?
    /// Ends every session of `subject`, or with `providerSessionID` (back-channel logout); how many ended.
    func removeAll(subject: String?, providerSessionID: String?) async throws -> Int
    /// Records the first use of the logout token `tokenID` of `issuer`, remembered until `expiresAt`
    /// by every replica that shares the store; false when it was used before: a replay, refused.
    func recordLogoutToken(_ tokenID: String, issuer: String, expiresAt: Double, now: Double) async throws -> Bool
    /// Forgets a recorded logout token whose logout failed, so that the provider's retry is not taken for a replay.
    func forgetLogoutToken(_ tokenID: String, issuer: String) async
    /// Runs `body` holding the session's refresh lock: one refresh at a time per session, across every
    /// replica that shares the store, so a rotating refresh token is never used twice. `body` re-reads the
    /// session first: another holder may have refreshed it already.
    func withRefreshLock<Result: Sendable>(
        _ id: String, _ body: @Sendable () async throws -> Result
    ) async throws -> Result
}
