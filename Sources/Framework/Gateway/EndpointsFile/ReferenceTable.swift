import JMESPath

/// Gives each reference of one endpoint's templates its slot while they are compiled: a
/// parameter, a claim of the caller's token, or a path into a call's answer (the same path
/// always gets the same slot), and each JMESPath expression its inputs.
struct ReferenceTable {
    /// The root that names the caller's claims: `{auth.sub}`; no parameter or call may take it.
    static let claimsRoot = "auth"

    /// The claims the templates read, in slot order.
    private(set) var claims: [String] = []
    private let parameters: [String: Int]
    private let calls: [String: Int]
    /// Per call, the paths into its answer that templates read.
    private(set) var extractions: [[Extraction]]
    /// Per call, the index of each path in `extractions`, so a template with many references
    /// compiles in linear time.
    private var extractionIndices: [[[Reference.Step]: Int]]
    /// Per call, whether an expression reads its whole answer, which is then decoded for it.
    private(set) var keepsDocument: [Bool]
    /// Whether an expression reads `auth`, the caller's claims as one object.
    private(set) var readsClaims = false

    init(parameterNames: [String], callNames: [String]) {
        parameters = Dictionary(parameterNames.enumerated().map { ($1, $0) }) { first, _ in first }
        calls = Dictionary(callNames.enumerated().map { ($1, $0) }) { first, _ in first }
        extractions = Array(repeating: [], count: callNames.count)
        extractionIndices = Array(repeating: [:], count: callNames.count)
        keepsDocument = Array(repeating: false, count: callNames.count)
    }

    /// Compiles the expression `text` at `place`, with the parameters, calls and `auth` it reads.
    ///
    /// - Throws: a syntax error, unknown function or wrong arity with its position, or a name that
    ///   is neither a parameter, a call nor `auth`.
    mutating func expression(_ text: String, at place: String) throws(EndpointsFileError) -> TemplateExpression {
        let expression: JMESPathExpression
        do {
            expression = try JMESPathExpression(text)
        } catch {
            throw EndpointsFileError("member \(place): expression \(text.debugDescription): \(error)")
        }
        guard let names = expression.documentFields else {
            throw EndpointsFileError(
                "member \(place): expression \(text.debugDescription): it reads the whole context (@, $ or * alone); name the parameters and calls it reads")
        }
        var inputs: [(name: String, input: TemplateExpression.Input)] = []
        for name in names.sorted() {
            if name == Self.claimsRoot {
                readsClaims = true
                inputs.append((name, .claims))
            } else if let parameter = parameters[name] {
                inputs.append((name, .parameter(parameter)))
            } else if let call = calls[name] {
                keepsDocument[call] = true
                inputs.append((name, .call(call)))
            } else {
                throw EndpointsFileError("member \(place): expression \(text.debugDescription): unknown call or parameter \(name)")
            }
        }
        return TemplateExpression(expression: expression, place: place, inputs: inputs)
    }

    /// The slot of `reference`; `asText` when a template interpolates it into text.
    ///
    /// - Throws: for a name that is neither a parameter nor a call, or a path into a parameter.
    mutating func slot(for reference: Reference, asText: Bool) throws(EndpointsFileError) -> ValueSlot {
        if reference.root == Self.claimsRoot {
            guard reference.steps.count == 1, case .member(let claim) = reference.steps[0] else {
                throw EndpointsFileError("reference {\(reference)}: name one claim of the caller's token, as in {auth.sub}")
            }
            if let index = claims.firstIndex(of: claim) { return ValueSlot(source: .claim, index: index) }
            claims.append(claim)
            return ValueSlot(source: .claim, index: claims.count - 1)
        }
        if let parameter = parameters[reference.root] {
            guard reference.steps.isEmpty else {
                throw EndpointsFileError("reference {\(reference)}: parameter \(reference.root) has no fields")
            }
            return ValueSlot(source: .parameter, index: parameter)
        }
        guard let call = calls[reference.root] else {
            throw EndpointsFileError("reference {\(reference)}: unknown call or parameter \(reference.root)")
        }
        if let index = extractionIndices[call][reference.steps] {
            if asText { extractions[call][index].isText = true }
            return ValueSlot(source: .call(call), index: index)
        }
        extractionIndices[call][reference.steps] = extractions[call].count
        extractions[call].append(Extraction(steps: reference.steps, isText: asText))
        return ValueSlot(source: .call(call), index: extractions[call].count - 1)
    }
}
