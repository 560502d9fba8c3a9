/// The `host [ ":" port ]` of a URL's authority or an address list's entry (RFC 3986 §3.2.2–3.2.3)
/// split into its two texts, for the parsers of proxy URLs, proxy bypass lists, CORS origins and
/// Redis URLs to check each part by their own rules.
public enum HostAndPortText {
    /// Splits `authority` after its host: a bracketed IP literal through its `]`, or else a name up
    /// to the first `:`. The port is the text after that `:` (empty for a trailing `:`), nil when
    /// the host runs to the end (so too a `[` without its `]`, for the host's own check to refuse);
    /// nil in all when anything but `:` follows the host.
    public static func split(_ authority: Substring) -> (host: Substring, port: Substring?)? {
        let hostEnd = authority.first == "[" ? authority.firstIndex(of: "]").map(authority.index(after:)) : authority.firstIndex(of: ":")
        guard let hostEnd, hostEnd < authority.endIndex else { return (authority, nil) }
        guard authority[hostEnd] == ":" else { return nil }
        return (authority[..<hostEnd], authority[authority.index(after: hostEnd)...])
    }

    /// The port of one to five ASCII digits worth 1 to 65535, or nil.
    public static func portNumber(_ digits: Substring) -> Int? {
        guard (1...5).contains(digits.utf8.count), digits.utf8.allSatisfy(DecimalDigits.isDigit),
              let number = Int(digits), (1...65535).contains(number)
        else { return nil }
        return number
    }
}
