public import HTTPBasics
/// What the router found for a request served by a prefix route (`Router.addPrefix`).
public struct PrefixMatch: Sendable {
    /// The prefix as registered: `/ct`.
    public let prefix: String
    /// The rest of the path below the prefix, raw (not percent-decoded): empty for the prefix
    /// itself, else starting with `/` (`/a/b` for `/ct/a/b`, `/` for `/ct/`). The query is the
    /// request's, as received.
    public let remainder: Substring

    /// The methods `Router.allowedMethods(at:)` lists for a prefix route, which serves every
    /// method but CONNECT: those a client sends but TRACE, which an intermediary should not relay.
    public static let listedMethods: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

    /// A match of `remainder` below `prefix`.
    public init(prefix: String, remainder: Substring) {
        self.prefix = prefix
        self.remainder = remainder
    }
}
