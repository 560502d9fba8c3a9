/// A Pratt parser from tokens to a `Node` tree, with the binding powers of the JMESPath community
/// reference implementation. It checks function names and arities, and variables against the
/// `let` scopes around them, so that a compiled expression fails at run time only on its data.
struct Parser {
    /// The deepest tree compiled: deeper nesting is a syntax error, never a stack overflow.
    static let maximumDepth = 128

    private let tokens: [Lexer.Token]
    private var index = 0
    private var scopes: [[String]] = []
    private var nesting = 0

    static func parse(_ expression: String, allowsLegacyLiterals: Bool) throws(JMESPathError) -> Node {
        var parser = Parser(tokens: try Lexer.tokens(of: expression, allowsLegacyLiterals: allowsLegacyLiterals))
        let node = try parser.expression(0)
        guard case .end = parser.current.kind else {
            throw JMESPathError(.syntax, "unexpected \(parser.current.kind.name)", at: parser.current.position)
        }
        return node
    }

    private init(tokens: [Lexer.Token]) { self.tokens = tokens }

    private var current: Lexer.Token { tokens[index] }
    private func peek(_ offset: Int) -> Lexer.Token { tokens[min(index + offset, tokens.count - 1)] }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private mutating func match(_ kind: Lexer.Kind) throws(JMESPathError) {
        guard current.kind == kind else {
            throw JMESPathError(.syntax, "expected \(kind.name), found \(current.kind.name)", at: current.position)
        }
        advance()
    }

    private func node(_ kind: Node.Kind, at position: Int) throws(JMESPathError) -> Node {
        let node = Node(kind, at: position)
        guard node.depth <= Parser.maximumDepth else {
            throw JMESPathError(.syntax, "the expression nests deeper than \(Parser.maximumDepth) levels", at: position)
        }
        return node
    }

    private static func bindingPower(_ kind: Lexer.Kind) -> Int {
        switch kind {
        case .pipe: 1
        case .question: 2
        case .or: 3
        case .and: 4
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: 5
        case .plus, .minus: 6
        case .divide, .modulo, .integerDivide: 7
        case .flatten: 9
        case .star: 20
        case .filter: 21
        case .dot: 40
        case .not: 45
        case .leftBrace: 50
        case .leftBracket: 55
        case .leftParen: 60
        default: 0
        }
    }

    private mutating func expression(_ bindingPower: Int) throws(JMESPathError) -> Node {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Parser.maximumDepth else {
            throw JMESPathError(.syntax, "the expression nests deeper than \(Parser.maximumDepth) levels", at: current.position)
        }
        let token = current
        advance()
        var left = try prefix(token)
        while bindingPower < Parser.bindingPower(current.kind) {
            let token = current
            advance()
            left = try infix(token, left)
        }
        return left
    }

    // MARK: Prefix ("nud")

    private mutating func prefix(_ token: Lexer.Token) throws(JMESPathError) -> Node {
        let at = token.position
        switch token.kind {
        case .literal(let value): return try node(.literal(value), at: at)
        case .identifier(let name):
            if name == "let", case .variable = current.kind { return try letExpression(at: at) }
            return try node(.field(name), at: at)
        case .quotedIdentifier(let name):
            if current.kind == .leftParen {
                throw JMESPathError(.syntax, "a quoted identifier cannot name a function", at: at)
            }
            return try node(.field(name), at: at)
        case .star:
            let right = try projectionRight(Parser.bindingPower(.star))
            return try node(.valueProjection(try node(.current, at: at), right), at: at)
        case .filter: return try filter(try node(.current, at: at), at: at)
        case .leftBrace: return try multiSelectHash(at: at)
        case .leftParen:
            let inner = try expression(0)
            try match(.rightParen)
            return inner
        case .flatten:
            let left = try node(.flatten(try node(.current, at: at)), at: at)
            return try node(.projection(left, try projectionRight(Parser.bindingPower(.flatten))), at: at)
        case .not: return try node(.not(try expression(Parser.bindingPower(.not))), at: at)
        case .minus: return try node(.negate(try expression(Parser.bindingPower(.not))), at: at)
        case .plus: return try node(.unaryPlus(try expression(Parser.bindingPower(.not))), at: at)
        case .leftBracket:
            if isIndexStart {
                return try projectIfSlice(try node(.current, at: at), try indexExpression(at: at), at: at)
            }
            if current.kind == .star, peek(1).kind == .rightBracket {
                advance()
                advance()
                let right = try projectionRight(Parser.bindingPower(.star))
                return try node(.projection(try node(.current, at: at), right), at: at)
            }
            return try multiSelectList(at: at)
        case .at: return try node(.current, at: at)
        case .root: return try node(.root, at: at)
        case .variable(let name):
            guard scopes.contains(where: { $0.contains(name) }) else {
                throw JMESPathError(.undefinedVariable, "the variable $\(name) is not bound by an enclosing let", at: at)
            }
            return try node(.variable(name), at: at)
        case .ampersand: return try node(.expressionReference(try expression(0)), at: at)
        default:
            throw JMESPathError(.syntax, "unexpected \(token.kind.name)", at: at)
        }
    }

    private mutating func letExpression(at position: Int) throws(JMESPathError) -> Node {
        var bindings: [(name: String, value: Node)] = []
        repeat {
            if !bindings.isEmpty { advance() }
            guard case .variable(let name) = current.kind else {
                throw JMESPathError(.syntax, "expected a variable, found \(current.kind.name)", at: current.position)
            }
            advance()
            try match(.assign)
            bindings.append((name, try expression(0)))
        } while current.kind == .comma
        guard case .identifier("in") = current.kind else {
            throw JMESPathError(.syntax, "expected 'in', found \(current.kind.name)", at: current.position)
        }
        advance()
        scopes.append(bindings.map(\.name))
        defer { scopes.removeLast() }
        return try node(.letBindings(bindings, try expression(0)), at: position)
    }

    // MARK: Infix ("led")

    private mutating func infix(_ token: Lexer.Token, _ left: Node) throws(JMESPathError) -> Node {
        let at = token.position
        switch token.kind {
        case .dot:
            if current.kind == .star {
                advance()
                return try node(.valueProjection(left, try projectionRight(Parser.bindingPower(.dot))), at: at)
            }
            return try node(.subexpression(left, try dotRight(Parser.bindingPower(.dot))), at: at)
        case .pipe: return try node(.pipe(left, try expression(Parser.bindingPower(.pipe))), at: at)
        case .or: return try node(.or(left, try expression(Parser.bindingPower(.or))), at: at)
        case .and: return try node(.and(left, try expression(Parser.bindingPower(.and))), at: at)
        case .leftParen: return try functionCall(left, at: at)
        case .filter: return try filter(left, at: at)
        case .flatten:
            let flattened = try node(.flatten(left), at: at)
            return try node(.projection(flattened, try projectionRight(Parser.bindingPower(.flatten))), at: at)
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let comparison: Node.Comparison =
                switch token.kind {
                case .equal: .equal
                case .notEqual: .notEqual
                case .less: .less
                case .lessOrEqual: .lessOrEqual
                case .greater: .greater
                default: .greaterOrEqual
                }
            return try node(.comparison(comparison, left, try expression(Parser.bindingPower(token.kind))), at: at)
        case .plus, .minus, .star, .divide, .modulo, .integerDivide:
            let operation: Node.Arithmetic =
                switch token.kind {
                case .plus: .add
                case .minus: .subtract
                case .star: .multiply
                case .divide: .divide
                case .modulo: .modulo
                default: .integerDivide
                }
            let power = token.kind == .star ? Parser.bindingPower(.divide) : Parser.bindingPower(token.kind)
            return try node(.arithmetic(operation, left, try expression(power)), at: at)
        case .question:
            let then = try expression(0)
            try match(.colon)
            let otherwise = try expression(Parser.bindingPower(.question) - 1)
            return try node(.ternary(left, then, otherwise), at: at)
        case .leftBracket:
            if isIndexStart { return try projectIfSlice(left, try indexExpression(at: at), at: at) }
            try match(.star)
            try match(.rightBracket)
            return try node(.projection(left, try projectionRight(Parser.bindingPower(.star))), at: at)
        default:
            throw JMESPathError(.syntax, "unexpected \(token.kind.name)", at: at)
        }
    }

    // MARK: Pieces

    private var isIndexStart: Bool {
        switch current.kind {
        case .number, .colon: true
        case .minus: if case .number = peek(1).kind { peek(1).position == current.end } else { false }
        default: false
        }
    }

    private mutating func signedNumber() throws(JMESPathError) -> Int? {
        var sign = 1
        if current.kind == .minus {
            sign = -1
            advance()
        }
        guard case .number(let value) = current.kind else {
            if sign == -1 { throw JMESPathError(.syntax, "expected a number after '-'", at: current.position) }
            return nil
        }
        advance()
        return sign * value
    }

    /// `[n]` or `[start:stop:step]`, after the `[`.
    private mutating func indexExpression(at position: Int) throws(JMESPathError) -> Node {
        var parts: [Int?] = [try signedNumber()]
        while current.kind == .colon {
            guard parts.count < 3 else { throw JMESPathError(.syntax, "a slice has at most three parts", at: current.position) }
            advance()
            parts.append(try signedNumber())
        }
        try match(.rightBracket)
        if parts.count == 1, let index = parts[0] { return try node(.index(index), at: position) }
        if parts.count == 1 { throw JMESPathError(.syntax, "expected an index", at: position) }
        if parts.count == 3, parts[2] == 0 {
            throw JMESPathError(.invalidValue, "a slice's step cannot be 0", at: position)
        }
        return try node(.slice(start: parts[0], stop: parts[1], step: parts.count == 3 ? parts[2] : nil), at: position)
    }

    private mutating func projectIfSlice(_ left: Node, _ right: Node, at position: Int) throws(JMESPathError) -> Node {
        let indexed = try node(.subexpression(left, right), at: position)
        guard case .slice = right.kind else { return indexed }
        return try node(.projection(indexed, try projectionRight(Parser.bindingPower(.star))), at: position)
    }

    private mutating func projectionRight(_ bindingPower: Int) throws(JMESPathError) -> Node {
        let power = Parser.bindingPower(current.kind)
        if power < 10 { return try node(.current, at: current.position) }
        switch current.kind {
        case .leftBracket, .filter: return try expression(bindingPower)
        case .dot:
            advance()
            return try dotRight(bindingPower)
        default:
            throw JMESPathError(.syntax, "unexpected \(current.kind.name) after a projection", at: current.position)
        }
    }

    private mutating func dotRight(_ bindingPower: Int) throws(JMESPathError) -> Node {
        let at = current.position
        switch current.kind {
        case .identifier, .quotedIdentifier, .star: return try expression(bindingPower)
        case .leftBracket:
            advance()
            return try multiSelectList(at: at)
        case .leftBrace:
            advance()
            return try multiSelectHash(at: at)
        default:
            throw JMESPathError(.syntax, "expected a name, '[', '{' or '*' after '.', found \(current.kind.name)", at: at)
        }
    }

    private mutating func filter(_ left: Node, at position: Int) throws(JMESPathError) -> Node {
        let condition = try expression(0)
        try match(.rightBracket)
        let right = current.kind == .flatten ? try node(.current, at: current.position) : try projectionRight(Parser.bindingPower(.filter))
        return try node(.filterProjection(left, right, condition: condition), at: position)
    }

    private mutating func multiSelectList(at position: Int) throws(JMESPathError) -> Node {
        var elements: [Node] = []
        repeat {
            if !elements.isEmpty { advance() }
            elements.append(try expression(0))
        } while current.kind == .comma
        try match(.rightBracket)
        return try node(.multiSelectList(elements), at: position)
    }

    private mutating func multiSelectHash(at position: Int) throws(JMESPathError) -> Node {
        var members: [(key: String, value: Node)] = []
        repeat {
            if !members.isEmpty { advance() }
            let key: String
            switch current.kind {
            case .identifier(let name), .quotedIdentifier(let name): key = name
            default: throw JMESPathError(.syntax, "expected a key, found \(current.kind.name)", at: current.position)
            }
            advance()
            try match(.colon)
            members.append((key, try expression(0)))
        } while current.kind == .comma
        try match(.rightBrace)
        return try node(.multiSelectHash(members), at: position)
    }

    private mutating func functionCall(_ left: Node, at position: Int) throws(JMESPathError) -> Node {
        guard case .field(let name) = left.kind else {
            throw JMESPathError(.syntax, "only a name can be called", at: position)
        }
        var arguments: [Node] = []
        while current.kind != .rightParen {
            if !arguments.isEmpty { try match(.comma) }
            arguments.append(try expression(0))
        }
        advance()
        guard let function = Function(rawValue: name) else {
            throw JMESPathError(.unknownFunction, "unknown function \(name)()", at: left.position)
        }
        try function.checkArity(arguments.count, at: left.position)
        return try node(.function(function, arguments), at: left.position)
    }
}

extension Lexer.Kind {
    /// The token as an error message names it.
    var name: String {
        switch self {
        case .identifier(let name): "'\(name)'"
        case .quotedIdentifier(let name): "\"\(name)\""
        case .literal: "a literal"
        case .number(let value): "\(value)"
        case .variable(let name): "$\(name)"
        case .dot: "'.'"
        case .star: "'*'"
        case .flatten: "'[]'"
        case .filter: "'[?'"
        case .leftBracket: "'['"
        case .rightBracket: "']'"
        case .leftBrace: "'{'"
        case .rightBrace: "'}'"
        case .leftParen: "'('"
        case .rightParen: "')'"
        case .comma: "','"
        case .colon: "':'"
        case .pipe: "'|'"
        case .or: "'||'"
        case .and: "'&&'"
        case .not: "'!'"
        case .ampersand: "'&'"
        case .at: "'@'"
        case .root: "'$'"
        case .question: "'?'"
        case .assign: "'='"
        case .equal: "'=='"
        case .notEqual: "'!='"
        case .less: "'<'"
        case .lessOrEqual: "'<='"
        case .greater: "'>'"
        case .greaterOrEqual: "'>='"
        case .plus: "'+'"
        case .minus: "'-'"
        case .divide: "'/'"
        case .modulo: "'%'"
        case .integerDivide: "'//'"
        case .end: "end of the expression"
        }
    }
}
