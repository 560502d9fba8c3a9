/// A `{reference}` of a template, parsed: a parameter, or a call's answer and a path into it
/// (`person.films[0]`, `menu[*].name`).
struct Reference: Hashable, Sendable, CustomStringConvertible {
    enum Step: Hashable, Sendable {
        /// `.name`: the member of an object.
        case member(String)
        /// `[2]`: the element of an array.
        case index(Int)
        /// `[*]`: the rest of the path applied to every element of an array.
        case each
    }

    /// The parameter or call named first.
    let root: String
    let steps: [Step]

    /// Long enough for any sensible path, short enough that no reference costs much to follow.
    static let maximumLength = 256

    /// The reference of `steps` into `root`.
    init(root: String, steps: [Step]) {
        self.root = root
        self.steps = steps
    }

    /// Parses the text between the braces.
    init(parsing text: Substring) throws(EndpointsFileError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw EndpointsFileError("a reference is longer than \(Self.maximumLength) characters")
        }
        let invalid = EndpointsFileError("invalid reference {\(text)}: expected name, .field, [index] or [*]")
        var rest = text[...]
        let root = Self.name(from: &rest)
        guard !root.isEmpty else { throw invalid }
        var steps: [Step] = []
        while let first = rest.first {
            rest = rest.dropFirst()
            if first == "." {
                let field = Self.name(from: &rest)
                guard !field.isEmpty else { throw invalid }
                steps.append(.member(field))
            } else if first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[..<close]
                rest = rest[rest.index(after: close)...]
                if inside == "*" {
                    steps.append(.each)
                } else if !inside.isEmpty, inside.count <= 9, inside.allSatisfy(\.isASCII), let index = Int(inside), index >= 0 {
                    steps.append(.index(index))
                } else {
                    throw invalid
                }
            } else {
                throw invalid
            }
        }
        self.init(root: root, steps: steps)
    }

    /// Whether `text` can name an upstream, a parameter or a call: 1 to 64 ASCII letters,
    /// digits, `_` and `-`, which references can spell.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.allSatisfy(isNameCharacter)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-")
    }

    /// A leading run of letters, digits, `_` and `-` taken off `text`.
    private static func name(from text: inout Substring) -> String {
        let end = text.firstIndex { !isNameCharacter($0) } ?? text.endIndex
        defer { text = text[end...] }
        return String(text[..<end])
    }

    var hasProjection: Bool { steps.contains(.each) }

    var description: String {
        var text = root
        for step in steps {
            switch step {
            case .member(let name): text += "." + name
            case .index(let index): text += "[\(index)]"
            case .each: text += "[*]"
            }
        }
        return text
    }
}
