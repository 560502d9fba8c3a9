/// Splits an expression into tokens, each with its position in Unicode scalars.
struct Lexer {
    enum Kind: Equatable {
        case identifier(String)
        case quotedIdentifier(String)
        case literal(JMESPathValue)
        case number(Int)
        case variable(String)
        case dot, star, flatten, filter, leftBracket, rightBracket, leftBrace, rightBrace, leftParen, rightParen
        case comma, colon, pipe, or, and, not, ampersand, at, root, question, assign
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case plus, minus, divide, modulo, integerDivide
        case end
    }

    struct Token: Equatable {
        let kind: Kind
        let position: Int
        /// Where the token's last scalar ends, to tell `-1` from `- 1`.
        let end: Int
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0

    /// The longest expression compiled: longer text is refused before any work is done.
    static let maximumLength = 64 * 1024

    private let allowsLegacyLiterals: Bool

    static func tokens(of expression: String, allowsLegacyLiterals: Bool) throws(JMESPathError) -> [Token] {
        var lexer = Lexer(scalars: Array(expression.unicodeScalars), allowsLegacyLiterals: allowsLegacyLiterals)
        guard lexer.scalars.count <= maximumLength else {
            throw JMESPathError(.syntax, "the expression is longer than \(maximumLength) characters", at: maximumLength)
        }
        var tokens: [Token] = []
        while let token = try lexer.next() { tokens.append(token) }
        tokens.append(Token(kind: .end, position: lexer.scalars.count, end: lexer.scalars.count))
        return tokens
    }

    private init(scalars: [Unicode.Scalar], allowsLegacyLiterals: Bool) {
        self.scalars = scalars
        self.allowsLegacyLiterals = allowsLegacyLiterals
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func next() throws(JMESPathError) -> Token? {
        while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { index += 1 }
        guard let scalar = peek() else { return nil }
        let start = index
        func token(_ kind: Kind, length: Int = 1) -> Token {
            index = start + length
            return Token(kind: kind, position: start, end: index)
        }
        switch scalar {
        case "a"..."z", "A"..."Z", "_":
            let name = identifier()
            return Token(kind: .identifier(name), position: start, end: index)
        case "0"..."9":
            while let digit = peek(), ("0"..."9").contains(digit) { index += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<index]))
            guard let value = Int(text) else { throw JMESPathError(.syntax, "the number \(text) is too large", at: start) }
            return Token(kind: .number(value), position: start, end: index)
        case "$":
            index += 1
            guard let next = peek(), next == "_" || ("a"..."z").contains(next) || ("A"..."Z").contains(next) else {
                return Token(kind: .root, position: start, end: index)
            }
            let name = identifier()
            return Token(kind: .variable(name), position: start, end: index)
        case "\"":
            let text = try delimited(by: "\"", keepingEscapes: true)
            guard case .string(let name)? = try? JMESPathValue(parsingJSON: Array(("\"" + text + "\"").utf8)) else {
                throw JMESPathError(.syntax, "invalid quoted identifier", at: start)
            }
            return Token(kind: .quotedIdentifier(name), position: start, end: index)
        case "'":
            let text = try delimited(by: "'", keepingEscapes: false)
            return Token(kind: .literal(.string(text)), position: start, end: index)
        case "`":
            let text = try delimited(by: "`", keepingEscapes: false)
            return Token(kind: .literal(try literal(text, at: start)), position: start, end: index)
        case ".": return token(.dot)
        case "*", "\u{D7}": return token(.star)
        case "[":
            if peek(1) == "]" { return token(.flatten, length: 2) }
            if peek(1) == "?" { return token(.filter, length: 2) }
            return token(.leftBracket)
        case "]": return token(.rightBracket)
        case "{": return token(.leftBrace)
        case "}": return token(.rightBrace)
        case "(": return token(.leftParen)
        case ")": return token(.rightParen)
        case ",": return token(.comma)
        case ":": return token(.colon)
        case "@": return token(.at)
        case "?": return token(.question)
        case "+": return token(.plus)
        case "-", "\u{2212}": return token(.minus)
        case "%": return token(.modulo)
        case "\u{F7}": return token(.divide)
        case "/": return peek(1) == "/" ? token(.integerDivide, length: 2) : token(.divide)
        case "|": return peek(1) == "|" ? token(.or, length: 2) : token(.pipe)
        case "&": return peek(1) == "&" ? token(.and, length: 2) : token(.ampersand)
        case "!": return peek(1) == "=" ? token(.notEqual, length: 2) : token(.not)
        case "=": return peek(1) == "=" ? token(.equal, length: 2) : token(.assign)
        case "<": return peek(1) == "=" ? token(.lessOrEqual, length: 2) : token(.less)
        case ">": return peek(1) == "=" ? token(.greaterOrEqual, length: 2) : token(.greater)
        default:
            throw JMESPathError(.syntax, "unexpected character '\(scalar.escaped(asASCII: false))'", at: start)
        }
    }

    private mutating func identifier() -> String {
        let start = index
        while let next = peek(), next == "_" || ("a"..."z").contains(next) || ("A"..."Z").contains(next) || ("0"..."9").contains(next) {
            index += 1
        }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    /// The text between `quote` and its unescaped match. An escaped quote or backslash loses its
    /// backslash unless `keepingEscapes` (a quoted identifier's escapes are JSON's, decoded later).
    private mutating func delimited(by quote: Unicode.Scalar, keepingEscapes: Bool) throws(JMESPathError) -> String {
        let start = index
        index += 1
        var text = String.UnicodeScalarView()
        while let scalar = peek() {
            if scalar == quote {
                index += 1
                return String(text)
            }
            if scalar == "\\", let escaped = peek(1) {
                if keepingEscapes {
                    text.append(scalar)
                    text.append(escaped)
                } else if escaped == quote || (quote == "'" && escaped == "\\") {
                    text.append(escaped)
                } else {
                    text.append(scalar)
                    text.append(escaped)
                }
                index += 2
                continue
            }
            text.append(scalar)
            index += 1
        }
        throw JMESPathError(.syntax, "unterminated \(quote == "`" ? "literal" : quote == "'" ? "raw string" : "quoted identifier")", at: start)
    }

    /// A JSON literal; with legacy literals, text that is not JSON is read as a string, as the
    /// original specification's deprecated form allowed (`` `foo` `` is `"foo"`).
    private func literal(_ text: String, at position: Int) throws(JMESPathError) -> JMESPathValue {
        if let value = try? JMESPathValue(parsingJSON: Array(text.utf8)) { return value }
        guard allowsLegacyLiterals else {
            throw JMESPathError(.syntax, "invalid JSON literal (a string literal is quoted: `\"text\"`, or 'text')", at: position)
        }
        let trimmed = String(text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        if let value = try? JMESPathValue(parsingJSON: Array(("\"" + trimmed + "\"").utf8)) { return value }
        throw JMESPathError(.syntax, "invalid JSON literal", at: position)
    }
}
