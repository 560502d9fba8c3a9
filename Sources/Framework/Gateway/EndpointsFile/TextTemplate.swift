/// Text with `{reference}`s in it, compiled: a call's path segment, link or query value, or a
/// string of a JSON template that is more than one reference.
///
/// `{{` and `}}` stand for literal braces.
struct TextTemplate: Sendable {
    enum Part: Sendable {
        case literal(String)
        case value(ValueSlot)
    }

    let parts: [Part]

    init(parsing text: String, references: inout ReferenceTable) throws(EndpointsFileError) {
        var parts: [Part] = []
        for piece in try Self.pieces(of: text) {
            switch piece {
            case .literal(let literal): parts.append(.literal(literal))
            case .reference(let reference): parts.append(.value(try references.slot(for: reference, asText: true)))
            }
        }
        self.parts = parts
    }

    /// A piece of template text: literal text, or a reference.
    enum Piece: Equatable {
        case literal(String)
        case reference(Reference)
    }

    /// Splits `text` into literal runs and references.
    static func pieces(of text: String) throws(EndpointsFileError) -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        var rest = text[...]
        while let brace = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            literal += rest[..<brace]
            let next = rest.index(after: brace)
            if next < rest.endIndex, rest[next] == rest[brace] {
                literal.append(rest[brace])
                rest = rest[rest.index(after: next)...]
            } else if rest[brace] == "}" {
                throw EndpointsFileError("unmatched } in \(quoted(text)); write }} for a literal brace")
            } else {
                guard let close = rest[next...].firstIndex(of: "}") else {
                    throw EndpointsFileError("unclosed { in \(quoted(text)); write {{ for a literal brace")
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.reference(try Reference(parsing: rest[next..<close])))
                rest = rest[rest.index(after: close)...]
            }
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    /// `text` quoted for an error line, cut short when long (a template may be most of a megabyte).
    private static func quoted(_ text: String) -> String {
        text.count <= 60 ? text.debugDescription : String(text.prefix(60)).debugDescription + "…"
    }

    /// The slot when the text is exactly one reference.
    var soleValue: ValueSlot? {
        guard parts.count == 1, case .value(let slot) = parts[0] else { return nil }
        return slot
    }

    var slots: [ValueSlot] {
        parts.compactMap { if case .value(let slot) = $0 { slot } else { nil } }
    }

    /// The text with every reference's value put in; a `null` or missing value puts in nothing.
    func render(_ values: TemplateValues) -> String {
        if parts.count == 1 {
            switch parts[0] {
            case .literal(let literal): return literal
            case .value(let slot): return values.text(slot) ?? ""
            }
        }
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .value(let slot): text += values.text(slot) ?? ""
            }
        }
        return text
    }
}
