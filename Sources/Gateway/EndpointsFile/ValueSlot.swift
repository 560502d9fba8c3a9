/// Where a template finds the value of one reference: a parameter, or one of the paths
/// extracted from a call's answer.
struct ValueSlot: Hashable, Sendable {
    enum Source: Hashable, Sendable {
        case parameter
        case call(Int)
    }

    let source: Source
    /// The parameter's index, or the index of the path among the call's extractions.
    let index: Int
}
