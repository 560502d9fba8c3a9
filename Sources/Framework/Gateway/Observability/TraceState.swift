/// The W3C Trace Context `tracestate` header (https://www.w3.org/TR/trace-context/#tracestate-header):
/// other tracing systems' data, which the gateway passes on with its `traceparent` and never reads.
enum TraceState {
    static let headerName = "tracestate"

    /// The specification's limit, beyond which a participant may drop the header.
    static let maximumLength = 512

    /// `value` when it keeps to the basic limits: 1 to 512 characters of printable ASCII (the
    /// header's grammar allows nothing else, and no control character may reach an upstream); nil otherwise.
    static func validated(_ value: String) -> String? {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return value
    }
}
