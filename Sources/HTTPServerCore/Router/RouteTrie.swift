import HTTPBasics

/// Routes stored as a trie of path segments, flattened into one array of nodes.
///
/// Matching walks the raw path once without splitting it into new strings; a literal segment
/// wins over a parameter, and the parameter branch is tried only when the literal branch does
/// not lead to a route.
struct RouteTrie: Sendable {
    struct Node: Sendable {
        var literals: [(segment: String, node: Int)] = []
        var parameter: (name: String, node: Int)?
        /// Methods registered at this node with the index of their handler, in registration order.
        var methods: [(method: HTTPMethod, handler: Int)] = []
    }

    /// A path that leads to a node with routes, and the raw text of each parameter segment.
    struct Match {
        var node: Int
        var parameters: [(name: String, raw: Substring.UTF8View)]
    }

    private(set) var nodes = [Node()]

    /// Adds `pattern` for `method`; a repeated method and pattern replaces the earlier handler.
    mutating func insert(pattern: String, method: HTTPMethod, handler: Int) {
        var current = 0
        for segment in Self.segments(of: pattern) {
            if segment.first == ":" {
                let name = String(segment.dropFirst())
                if let parameter = nodes[current].parameter {
                    precondition(parameter.name == name, "route \(pattern) names parameter :\(name) where another route has :\(parameter.name)")
                    current = parameter.node
                } else {
                    nodes.append(Node())
                    nodes[current].parameter = (name, nodes.count - 1)
                    current = nodes.count - 1
                }
            } else if let literal = nodes[current].literals.first(where: { $0.segment == segment }) {
                current = literal.node
            } else {
                nodes.append(Node())
                nodes[current].literals.append((String(segment), nodes.count - 1))
                current = nodes.count - 1
            }
        }
        if let existing = nodes[current].methods.firstIndex(where: { $0.method == method }) {
            nodes[current].methods[existing].handler = handler
        } else {
            nodes[current].methods.append((method, handler))
        }
    }

    /// The node with routes that `path` leads to, or nil.
    func match(_ path: String) -> Match? {
        let utf8 = path.utf8
        guard utf8.first == ASCII.slash else { return nil }
        var parameters: [(name: String, raw: Substring.UTF8View)] = []
        let start = utf8.count == 1 ? nil : utf8.index(after: utf8.startIndex)
        guard let node = find(from: 0, in: Substring(path).utf8, at: start, parameters: &parameters) else { return nil }
        return Match(node: node, parameters: parameters)
    }

    /// Matches the segments starting at `start` (nil: no segments left) below `node`.
    private func find(
        from node: Int,
        in path: Substring.UTF8View,
        at start: Substring.UTF8View.Index?,
        parameters: inout [(name: String, raw: Substring.UTF8View)]
    ) -> Int? {
        guard let start else { return nodes[node].methods.isEmpty ? nil : node }
        let end = path[start...].firstIndex(of: ASCII.slash) ?? path.endIndex
        let next = end == path.endIndex ? nil : path.index(after: end)
        let segment = path[start..<end]
        for literal in nodes[node].literals where segment.elementsEqual(literal.segment.utf8) {
            if let found = find(from: literal.node, in: path, at: next, parameters: &parameters) { return found }
        }
        if let parameter = nodes[node].parameter {
            parameters.append((parameter.name, segment))
            if let found = find(from: parameter.node, in: path, at: next, parameters: &parameters) { return found }
            parameters.removeLast()
        }
        return nil
    }

    /// The segments of a pattern: none for `/`, and an empty one for a trailing slash.
    private static func segments(of pattern: String) -> [Substring] {
        precondition(pattern.first == "/", "route pattern \(pattern) must start with /")
        guard pattern != "/" else { return [] }
        return pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }
}
