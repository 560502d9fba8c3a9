/// What a route asks of its callers when the gateway has a key set (`AUTH_JWKS_FILE` or
/// `AUTH_JWKS_URL`); without one no route asks anything.
public enum Authentication: String, Sendable {
    /// A valid `Authorization: Bearer <JWT>` (the default); the handler reads it as `call.identity`.
    case required
    /// Anyone may call it; `call.identity` is nil.
    case none
}
