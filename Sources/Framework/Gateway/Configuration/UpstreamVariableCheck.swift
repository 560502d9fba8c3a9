/// Refuses `UPSTREAM_*` variables meant for the gateway that name no variable of a catalog
/// upstream, such as `UPSTREAM_MENUU_URL` or `UPSTREAM_MENU_TIMEOUT`: a typo would otherwise
/// leave the default in force without a word.
///
/// A variable is taken as meant for the gateway when it starts with a catalog upstream's prefix
/// (`UPSTREAM_MENU_`) or ends with a per-upstream suffix (`_URL`, `_TIMEOUT_MS`, …); others,
/// such as a tool's `UPSTREAM_SIM_BIN`, are left alone. Both the known names and the suffixes
/// come from the table that `--help` and the loader use (`ConfigurationVariable.all(for:)`), so
/// a variable added there is known here at once.
enum UpstreamVariableCheck {
    static let prefix = "UPSTREAM_"

    /// The per-upstream suffixes, `URL` to the last one in the table, read off a placeholder upstream.
    static let suffixes: [String] = {
        let placeholder = UpstreamDefinition(name: "placeholder", defaultBaseURL: "")
        return ConfigurationVariable.all(for: placeholder).map { String($0.name.dropFirst(placeholder.environmentPrefix.count)) }
    }()

    /// - Throws: for the first unknown variable in name order, naming the likely intended one
    ///   when one is close.
    static func check(_ environment: [String: String], upstreams: [UpstreamDefinition]) throws(ConfigurationError) {
        let candidates = environment.keys.filter { $0.hasPrefix(prefix) }
        guard !candidates.isEmpty else { return }
        let known = Set(upstreams.flatMap(ConfigurationVariable.all(for:)).map(\.name))
        let prefixes = upstreams.map(\.environmentPrefix)
        let unknown = candidates.filter { name in
            !known.contains(name)
                && (prefixes.contains { name.hasPrefix($0) } || suffixes.contains { name.dropFirst(prefix.count).hasSuffix("_" + $0) })
        }
        guard let first = unknown.sorted().first else { return }
        var problem = "is not a variable of any upstream (upstreams: \(upstreams.map(\.name).joined(separator: ", ")))"
        if let suggestion = closest(to: first, among: known) {
            problem += "; did you mean \(suggestion)?"
        }
        throw ConfigurationError(variable: first, problem: problem)
    }

    /// The known name at the smallest edit distance from `name`, when that is small: a sixth of its length, at least 2.
    static func closest(to name: String, among known: Set<String>) -> String? {
        let limit = max(2, name.count / 6)
        let scored = known.map { ($0, distance(Array(name.utf8), Array($0.utf8))) }.filter { $0.1 <= limit }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions of one byte.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
