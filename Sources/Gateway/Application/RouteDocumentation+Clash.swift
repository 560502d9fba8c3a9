extension RouteDocumentation {
    /// Why the router could not serve this route beside `other`: it would serve one for the
    /// other (same method and shape), or hold a parameter named differently at the same place
    /// (which the route trie refuses). Nil when both can be served.
    func clash(with other: RouteDocumentation) -> String? {
        let segments = Self.segments(of: path)
        let otherSegments = Self.segments(of: other.path)
        for (mine, theirs) in zip(segments, otherSegments) {
            if mine.hasPrefix(":") && theirs.hasPrefix(":") {
                guard mine == theirs else {
                    return "route clashes with \(other.method) \(other.openAPIPath): its parameter \(mine.dropFirst()) is at the place of \(theirs.dropFirst()); use the same name"
                }
            } else if mine != theirs {
                return nil
            }
        }
        guard segments.count == otherSegments.count, method == other.method else { return nil }
        return "route clashes with \(other.method) \(other.openAPIPath)"
    }

    private static func segments(of path: String) -> [Substring] {
        path == "/" ? [] : path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }
}
