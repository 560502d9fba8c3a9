/// Where a template finds the value of one reference: a parameter, a claim of the caller's
/// token (`{auth.sub}`), or one of the paths extracted from a call's answer.
struct ValueSlot: Hashable, Sendable {
    enum Source: Hashable, Sendable {
        case parameter
        case claim
        case call(Int)
    }

    let source: Source
    /// The parameter's index, the claim's among those the endpoint reads, or the index of the path among the call's extractions.
    let index: Int
}
