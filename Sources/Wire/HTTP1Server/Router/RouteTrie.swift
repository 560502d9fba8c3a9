import HTTP1
import HTTPBasics

/// Routes stored as a trie of path segments, flattened into one array of nodes.
///
/// Matching walks the raw path once without splitting it into new strings; a literal segment
/// wins over a parameter, and the parameter branch is tried only when the literal branch does
/// not lead to a route.
struct RouteTrie: Sendable {
    struct Node: Sendable {
        var literals: [(segment: [UInt8], node: Int)] = []
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
            } else if let literal = nodes[current].literals.first(where: { $0.segment.elementsEqual(segment.utf8) }) {
                current = literal.node
            } else {
                nodes.append(Node())
                nodes[current].literals.append((Array(segment.utf8), nodes.count - 1))
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
        var path = path
        // Segments are compared as bytes of the path's contiguous UTF-8, one comparison of
        // lengths and bytes per literal, not through String or UTF-8 view iterators.
        let found = path.withUTF8 { bytes -> (node: Int, parameters: [(name: String, range: Range<Int>)])? in
            guard bytes.first == ASCII.slash else { return nil }
            var parameters: [(name: String, range: Range<Int>)] = []
            guard let node = find(from: 0, in: bytes, at: bytes.count == 1 ? nil : 1, parameters: &parameters) else { return nil }
            return (node, parameters)
        }
        guard let found else { return nil }
        let utf8 = Substring(path).utf8
        return Match(node: found.node, parameters: found.parameters.map { parameter in
            let lower = utf8.index(utf8.startIndex, offsetBy: parameter.range.lowerBound)
            let upper = utf8.index(lower, offsetBy: parameter.range.count)
            return (parameter.name, utf8[lower..<upper])
        })
    }

    /// Matches the segments starting at offset `start` (nil: no segments left) below `node`.
    private func find(
        from node: Int,
        in path: UnsafeBufferPointer<UInt8>,
        at start: Int?,
        parameters: inout [(name: String, range: Range<Int>)]
    ) -> Int? {
        guard let start else { return nodes[node].methods.isEmpty ? nil : node }
        let end = path[start...].firstIndex(of: ASCII.slash) ?? path.endIndex
        let next = end == path.endIndex ? nil : end + 1
        let segment = path[start..<end]
        for literal in nodes[node].literals where literal.segment.count == segment.count && literal.segment.elementsEqual(segment) {
            if let found = find(from: literal.node, in: path, at: next, parameters: &parameters) { return found }
        }
        if let parameter = nodes[node].parameter {
            parameters.append((parameter.name, start..<end))
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
