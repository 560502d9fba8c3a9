/// Why the endpoints file was refused at start-up: one line naming the fault and where it is.
struct EndpointsFileError: Error, Equatable, CustomStringConvertible {
    /// The fault, with its place in the file (`endpoint GET /v2/hero/{id}, call world: …`).
    let fault: String

    /// Control characters and line breaks in `fault` (from a name or path the file spells) are
    /// escaped, so that the fault stays the one line the start-up check prints.
    init(_ fault: String) {
        guard fault.unicodeScalars.contains(where: Self.breaksTheLine) else {
            self.fault = fault
            return
        }
        var line = ""
        for scalar in fault.unicodeScalars {
            if Self.breaksTheLine(scalar) {
                line += scalar.escaped(asASCII: true)
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        self.fault = line
    }

    private static func breaksTheLine(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// `unknown upstream shopp; did you mean shop?`, or with the names there are when none is close.
    static func unknownUpstream(_ name: String, among upstreams: [UpstreamDefinition]) -> EndpointsFileError {
        let names = upstreams.map(\.name)
        if let suggestion = UpstreamVariableCheck.closest(to: name, among: Set(names)) {
            return EndpointsFileError("unknown upstream \(name); did you mean \(suggestion)?")
        }
        return EndpointsFileError("unknown upstream \(name) (upstreams: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
    }

    /// The same fault, placed inside `context`.
    func within(_ context: String) -> EndpointsFileError {
        EndpointsFileError(context + ": " + fault)
    }

    var description: String { "configuration error: GATEWAY_ENDPOINTS_FILE: " + fault }
}
