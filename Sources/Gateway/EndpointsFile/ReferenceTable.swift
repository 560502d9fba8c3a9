/// Gives each reference of one endpoint's templates its slot while they are compiled: a
/// parameter, or a path into a call's answer (the same path always gets the same slot).
struct ReferenceTable {
    let parameterNames: [String]
    let callNames: [String]
    /// Per call, the paths into its answer that templates read.
    private(set) var extractions: [[Extraction]]

    init(parameterNames: [String], callNames: [String]) {
        self.parameterNames = parameterNames
        self.callNames = callNames
        extractions = Array(repeating: [], count: callNames.count)
    }

    /// The slot of `reference`; `asText` when a template interpolates it into text.
    ///
    /// - Throws: for a name that is neither a parameter nor a call, or a path into a parameter.
    mutating func slot(for reference: Reference, asText: Bool) throws(EndpointsFileError) -> ValueSlot {
        if let parameter = parameterNames.firstIndex(of: reference.root) {
            guard reference.steps.isEmpty else {
                throw EndpointsFileError("reference {\(reference)}: parameter \(reference.root) has no fields")
            }
            return ValueSlot(source: .parameter, index: parameter)
        }
        guard let call = callNames.firstIndex(of: reference.root) else {
            throw EndpointsFileError("reference {\(reference)}: unknown call or parameter \(reference.root)")
        }
        if let index = extractions[call].firstIndex(where: { $0.steps == reference.steps }) {
            if asText { extractions[call][index].isText = true }
            return ValueSlot(source: .call(call), index: index)
        }
        extractions[call].append(Extraction(steps: reference.steps, isText: asText))
        return ValueSlot(source: .call(call), index: extractions[call].count - 1)
    }
}
