/// What the router found for a request served by a prefix route (`Router.addPrefix`).
public struct PrefixMatch: Sendable {
    /// The prefix as registered: `/ct`.
    public let prefix: String
    /// The rest of the path below the prefix, raw (not percent-decoded): empty for the prefix
    /// itself, else starting with `/` (`/a/b` for `/ct/a/b`, `/` for `/ct/`). The query is the
    /// request's, as received.
    public let remainder: Substring

    public init(prefix: String, remainder: Substring) {
        self.prefix = prefix
        self.remainder = remainder
    }
}
