/// One finished span as OTLP carries it: what the gateway did for a request (a server span) or
/// for one attempt at an upstream call (a client span), with its place in the W3C trace.
///
/// A plain value, made when the work ends, so it can cross to the exporter's queue without
/// sharing anything with the request that made it.
struct Span: Sendable, Equatable {
    /// What side of a call the span stands for, by OTLP's `SpanKind` numbers.
    enum Kind: UInt8, Sendable {
        case `internal` = 1
        case server = 2
        case client = 3
    }

    /// The outcome as the semantic conventions set it: unset unless the work failed.
    enum Status: Sendable, Equatable {
        case unset
        case error(description: String)
    }

    /// The trace this span belongs to, as `TraceContext.traceID` holds it.
    var traceID: (high: UInt64, low: UInt64)
    /// This span's id: for a client span, exactly the parent id its call's `traceparent` sent.
    var spanID: UInt64
    /// The parent's span id, zero for a root span.
    var parentSpanID: UInt64
    /// The W3C trace flags the span was recorded under (the sampled bit).
    var flags: UInt8
    /// Whether the parent came from another process (the client's `traceparent`).
    var parentIsRemote: Bool
    var name: String
    var kind: Kind
    /// Wall-clock start and end, in nanoseconds since the Unix epoch.
    var startNanoseconds: UInt64
    var endNanoseconds: UInt64
    var attributes: [SpanAttribute]
    var events: [SpanEvent]
    var status: Status

    static func == (lhs: Span, rhs: Span) -> Bool {
        lhs.traceID == rhs.traceID && lhs.spanID == rhs.spanID && lhs.parentSpanID == rhs.parentSpanID && lhs.flags == rhs.flags
            && lhs.parentIsRemote == rhs.parentIsRemote && lhs.name == rhs.name && lhs.kind == rhs.kind
            && lhs.startNanoseconds == rhs.startNanoseconds && lhs.endNanoseconds == rhs.endNanoseconds
            && lhs.attributes == rhs.attributes && lhs.events == rhs.events && lhs.status == rhs.status
    }
}

/// A named moment in a span's life, such as a token refresh before an attempt.
struct SpanEvent: Sendable, Equatable {
    var name: String
    /// Nanoseconds since the Unix epoch.
    var timeNanoseconds: UInt64
    var attributes: [SpanAttribute]
}

/// One key and value of a span, event or resource, by the semantic conventions' names.
struct SpanAttribute: Sendable, Equatable {
    /// The value types OTLP's `AnyValue` carries that the gateway writes.
    enum Value: Sendable, Equatable {
        case string(String)
        case bool(Bool)
        case int(Int64)
        case double(Double)
    }

    var key: String
    var value: Value

    init(_ key: String, _ value: String) {
        self.key = key
        self.value = .string(value)
    }

    init(_ key: String, _ value: Int) {
        self.key = key
        self.value = .int(Int64(value))
    }

    init(_ key: String, _ value: Bool) {
        self.key = key
        self.value = .bool(value)
    }

    init(_ key: String, _ value: Double) {
        self.key = key
        self.value = .double(value)
    }
}
