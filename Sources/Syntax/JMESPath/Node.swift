/// A compiled expression's tree. A class so that each node knows its depth, which the parser bounds.
final class Node: Sendable {
    enum Comparison: Sendable { case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual }
    enum Arithmetic: Sendable { case add, subtract, multiply, divide, modulo, integerDivide }

    enum Kind: Sendable {
        case current
        case root
        case literal(JMESPathValue)
        case field(String)
        case variable(String)
        case subexpression(Node, Node)
        case index(Int)
        case slice(start: Int?, stop: Int?, step: Int?)
        case projection(Node, Node)
        case valueProjection(Node, Node)
        case filterProjection(Node, Node, condition: Node)
        case flatten(Node)
        case or(Node, Node)
        case and(Node, Node)
        case not(Node)
        case comparison(Comparison, Node, Node)
        case arithmetic(Arithmetic, Node, Node)
        case negate(Node)
        case unaryPlus(Node)
        case pipe(Node, Node)
        case multiSelectList([Node])
        case multiSelectHash([(key: String, value: Node)])
        case function(Function, [Node])
        case expressionReference(Node)
        case ternary(Node, Node, Node)
        case letBindings([(name: String, value: Node)], Node)
    }

    let kind: Kind
    let position: Int
    let depth: Int

    init(_ kind: Kind, at position: Int) {
        self.kind = kind
        self.position = position
        depth = 1 + (Node.children(of: kind).map(\.depth).max() ?? 0)
    }

    private static func children(of kind: Kind) -> [Node] {
        switch kind {
        case .current, .root, .literal, .field, .variable, .index, .slice: []
        case .subexpression(let left, let right), .projection(let left, let right), .valueProjection(let left, let right),
            .or(let left, let right), .and(let left, let right), .comparison(_, let left, let right), .arithmetic(_, let left, let right),
            .pipe(let left, let right):
            [left, right]
        case .filterProjection(let left, let right, let condition): [left, right, condition]
        case .flatten(let node), .not(let node), .negate(let node), .unaryPlus(let node), .expressionReference(let node): [node]
        case .multiSelectList(let nodes), .function(_, let nodes): nodes
        case .multiSelectHash(let members): members.map(\.value)
        case .ternary(let condition, let then, let otherwise): [condition, then, otherwise]
        case .letBindings(let bindings, let body): bindings.map(\.value) + [body]
        }
    }

    /// Whether this is `x[start:stop:step]`, the only projection whose left side may be a string.
    var isSlice: Bool {
        guard case .subexpression(_, let right) = kind, case .slice = right.kind else { return false }
        return true
    }

    var isExpressionReference: Bool {
        if case .expressionReference = kind { true } else { false }
    }
}

extension Node {
    /// The names of the members the expression reads from the document it is evaluated on (`a`
    /// and `c` in `a.b || $.c`); nil when it may read any (`@`, `$` or `*` on the document
    /// itself, `keys(@)`). `isDocument` says whether this node's current value is the document.
    func documentFields(isDocument: Bool) -> Set<String>? {
        func union(_ parts: [(Node, Bool)]) -> Set<String>? {
            var names: Set<String> = []
            for (node, isDocument) in parts {
                guard let more = node.documentFields(isDocument: isDocument) else { return nil }
                names.formUnion(more)
            }
            return names
        }
        switch kind {
        case .current: return isDocument ? nil : []
        case .root: return nil
        case .literal, .variable, .index, .slice: return []
        case .field(let name): return isDocument ? [name] : []
        case .subexpression(let left, let right), .pipe(let left, let right):
            if case .root = left.kind { return right.documentFields(isDocument: true) }
            return union([(left, isDocument), (right, false)])
        case .projection(let left, let right), .valueProjection(let left, let right):
            return union([(left, isDocument), (right, false)])
        case .filterProjection(let left, let right, let condition):
            return union([(left, isDocument), (right, false), (condition, false)])
        case .flatten(let node), .not(let node), .negate(let node), .unaryPlus(let node):
            return node.documentFields(isDocument: isDocument)
        case .expressionReference(let node): return node.documentFields(isDocument: false)
        case .or(let left, let right), .and(let left, let right), .comparison(_, let left, let right), .arithmetic(_, let left, let right):
            return union([(left, isDocument), (right, isDocument)])
        case .multiSelectList(let nodes), .function(_, let nodes): return union(nodes.map { ($0, isDocument) })
        case .multiSelectHash(let members): return union(members.map { ($0.value, isDocument) })
        case .ternary(let condition, let then, let otherwise):
            return union([(condition, isDocument), (then, isDocument), (otherwise, isDocument)])
        case .letBindings(let bindings, let body): return union(bindings.map { ($0.value, isDocument) } + [(body, isDocument)])
        }
    }
}
