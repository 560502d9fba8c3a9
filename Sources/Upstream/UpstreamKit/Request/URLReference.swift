/// A URI reference as found in a `Location` or `Content-Location` field, resolved against the
/// request it answers (RFC 3986 §5.2), so that every link rule judges an absolute URL.
///
/// Resolution is purely textual: it removes dot segments and drops the fragment, which never goes
/// on the wire; whether the result may be sent is for `BaseURL.target(forLink:)` to say.
enum URLReference {
    /// `reference` resolved against `target` (path and query) on `origin`: an absolute URL, or nil
    /// when `reference` is not a URI reference (it holds a space or a control character).
    static func resolve(_ reference: String, origin: Origin, target: String) -> String? {
        guard !reference.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        let parts = Parts(reference.prefix { $0 != "#" })
        if let scheme = parts.scheme {
            return scheme + ":" + (parts.authority.map { "//" + $0 } ?? "") + removingDotSegments(parts.path) + parts.querySuffix
        }
        let authority = origin.scheme + "://" + (parts.authority ?? origin.hostHeader)
        if parts.authority != nil {
            return authority + removingDotSegments(parts.path) + parts.querySuffix
        }
        let basePath = target.prefix { $0 != "?" }
        if parts.path.isEmpty {
            let baseQuery = target[basePath.endIndex...]
            return authority + basePath + (parts.query == nil ? String(baseQuery) : parts.querySuffix)
        }
        if parts.path.hasPrefix("/") {
            return authority + removingDotSegments(parts.path) + parts.querySuffix
        }
        let directory = basePath[..<(basePath.lastIndex(of: "/").map { basePath.index(after: $0) } ?? basePath.startIndex)]
        return authority + removingDotSegments((directory.isEmpty ? "/" : directory) + parts.path) + parts.querySuffix
    }

    /// The components of a reference without its fragment (RFC 3986 §3).
    private struct Parts {
        var scheme: String?
        var authority: String?
        var path: Substring
        var query: Substring?

        init(_ text: Substring) {
            var rest = text
            // A scheme is letters, digits, `+`, `-` and `.` before the first `:`, starting with a letter.
            if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isASCII, first.isLetter,
               rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
                scheme = rest[..<colon].lowercased()
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                let authorityStart = rest.index(rest.startIndex, offsetBy: 2)
                let authorityEnd = rest[authorityStart...].firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
                authority = String(rest[authorityStart..<authorityEnd])
                rest = rest[authorityEnd...]
            }
            if let questionMark = rest.firstIndex(of: "?") {
                query = rest[rest.index(after: questionMark)...]
                rest = rest[..<questionMark]
            }
            path = rest
        }

        var querySuffix: String { query.map { "?" + $0 } ?? "" }
    }

    /// `path` without `.` and `..` segments (RFC 3986 §5.2.4); `..` never climbs above the root.
    static func removingDotSegments(_ path: Substring) -> String {
        guard path.contains(".") else { return String(path) }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(path.hasPrefix("/") ? 1 : 0)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + output.joined(separator: "/")
    }
}
