/// Why the endpoints file was refused at start-up: one line naming the fault and where it is.
struct EndpointsFileError: Error, Equatable, CustomStringConvertible {
    /// The fault, with its place in the file (`endpoint GET /v2/hero/{id}, call world: …`).
    let fault: String

    init(_ fault: String) {
        self.fault = fault
    }

    /// The same fault, placed inside `context`.
    func within(_ context: String) -> EndpointsFileError {
        EndpointsFileError(context + ": " + fault)
    }

    var description: String { "configuration error: GATEWAY_ENDPOINTS_FILE: " + fault }
}
