import JMESPath

/// The values one request's templates read: its parameters, its caller's claims and the answers
/// of its calls so far.
struct TemplateValues: Sendable {
    let parameters: ExtractedValues
    /// The claims the templates read, `null` each when the request has no verified token.
    let claims: ExtractedValues
    /// Per call, its extracted values; nil until it answers, and for good when it failed or was skipped.
    var calls: [ExtractedValues?]
    /// The caller's claims as one object, for expressions that read `auth`; `null` otherwise.
    var claimsDocument: JMESPathValue = .null

    /// - Parameter claims: none unless the templates read claims of the caller's token.
    init(parameters: ExtractedValues, claims: ExtractedValues = ExtractedValues(capacity: 0), calls: [ExtractedValues?]) {
        self.parameters = parameters
        self.claims = claims
        self.calls = calls
    }

    /// Appends the JSON of the value in `slot`, `null` when there is none.
    func appendJSON(_ slot: ValueSlot, to bytes: inout [UInt8]) {
        switch slot.source {
        case .parameter:
            bytes.append(contentsOf: parameters.json(at: slot.index))
        case .claim:
            bytes.append(contentsOf: claims.json(at: slot.index))
        case .call(let call):
            if let values = calls[call] {
                bytes.append(contentsOf: values.json(at: slot.index))
            } else {
                bytes.append(contentsOf: "null".utf8)
            }
        }
    }

    /// The text of the value in `slot`; nil for `null` or missing.
    func text(_ slot: ValueSlot) -> String? {
        switch slot.source {
        case .parameter: parameters.text(at: slot.index)
        case .claim: claims.text(at: slot.index)
        case .call(let call): calls[call]?.text(at: slot.index)
        }
    }
}
