import HTTPBasics

/// A request's place in a W3C trace (https://www.w3.org/TR/trace-context/), the gateway taking
/// part as one participant: it continues the client's trace when the client sends a valid
/// `traceparent`, else starts one, and makes each upstream call a child of its own.
struct TraceContext: Sendable {
    /// The 16 bytes that name the trace in every participant's records, high half first.
    let traceID: (high: UInt64, low: UInt64)
    /// The client's span that sent the request, zero when the gateway started the trace.
    let parentID: UInt64
    /// Trace flags as passed on: the sampled bit only, since the flags version 00 does not define must be sent as zero.
    /// The client's (or, for a trace started here, sampled) until a sampler decides (`recording(sampled:)`).
    private(set) var flags: UInt8
    /// The client's `tracestate`, passed on unchanged with each call's `traceparent`.
    let traceState: String?
    /// The trace id's 32 digits as `IdentifierSource.hexWords(of:)` makes them, high half first:
    /// made once, since every upstream call's `traceparent` and the access log line write them.
    private let traceIDDigits: (high: (UInt64, UInt64), low: (UInt64, UInt64))

    /// The trace of a request with `headers`: the client's when it sent exactly one valid
    /// `traceparent`, with its `tracestate` fields (joined into one list) when they keep to the
    /// basic limits; otherwise a trace started here, sampled, without `tracestate`.
    init(of headers: HTTPHeaders) {
        var traceParent: String?
        var traceParents = 0
        var traceState: String?
        for field in headers {
            if field.name.equalsIgnoringASCIICase(TraceParent.headerName) {
                traceParent = field.value
                traceParents += 1
            } else if field.name.equalsIgnoringASCIICase(TraceState.headerName) {
                // Several fields are one comma-separated list (RFC 9110 §5.3); one field is kept as it is.
                traceState = traceState.map { $0 + "," + field.value } ?? field.value
            }
        }
        // Two traceparent fields name no single parent, so neither is taken.
        guard traceParents == 1, let traceParent, let parsed = TraceParent.parse(traceParent) else {
            self = .started()
            return
        }
        self.init(
            traceID: parsed.traceID, parentID: parsed.parentID, flags: parsed.flags & TraceParent.sampled,
            traceState: traceState.flatMap(TraceState.validated))
    }

    private init(traceID: (high: UInt64, low: UInt64), parentID: UInt64, flags: UInt8, traceState: String?) {
        self.traceID = traceID
        self.parentID = parentID
        self.flags = flags
        self.traceState = traceState
        traceIDDigits = (IdentifierSource.hexWords(of: traceID.high), IdentifierSource.hexWords(of: traceID.low))
    }

    /// A new trace: the process's random prefix and its next identifier as the trace id, as a
    /// generated request id is made, so its last 8 bytes look random to samplers that read them.
    /// Sampled, since the gateway records the trace id in its access log and an upstream's
    /// tracer that follows its parent's decision should record the calls too.
    static func started() -> TraceContext {
        TraceContext(
            traceID: (IdentifierSource.processPrefix, IdentifierSource.next()), parentID: 0, flags: TraceParent.sampled, traceState: nil)
    }

    /// Whether the client sent a `traceparent` whose sampled flag is set; nil when the gateway started the trace.
    var parentSampled: Bool? {
        parentID != 0 ? flags & TraceParent.sampled != 0 : nil
    }

    /// This trace with the sampled flag set as a sampler decided, so that every upstream call's
    /// `traceparent` tells the upstream whether the gateway records the trace.
    func recording(sampled: Bool) -> TraceContext {
        var trace = self
        trace.flags = sampled ? TraceParent.sampled : 0
        return trace
    }

    /// The `traceparent` of one upstream call: version 00, this trace and its flags, and a new
    /// parent id that names the call.
    func traceParentForCall() -> String {
        TraceParent.header(traceIDDigits: traceIDDigits, parentID: IdentifierSource.nextNonZero(), flags: flags)
    }

    /// Appends the trace id as 32 lower-case hexadecimal digits, as `traceparent` writes it.
    func appendTraceID(to bytes: inout [UInt8]) {
        withUnsafeBytes(of: traceIDDigits) { bytes.append(contentsOf: $0) }
    }
}
