import HTTPServerCore
import Synchronization
import Upstream

/// What the gateway tracks about one request from arrival to its access log line: its id and
/// trace context, its deadline, the route that served it and the upstream calls it made.
///
/// The outermost responder creates it and hands it to the router, which gives it to the route's
/// handler; the handler's upstream calls carry it (`UpstreamClient`), and as their attempt
/// observer it counts the retries of each call, by the call's `traceparent`.
final class RequestScope: Sendable, AttemptObserver {
    let requestID: String
    /// The W3C trace the request belongs to: the client's, or one started for it; every upstream
    /// call is a child of it.
    let trace: TraceContext
    let start: ContinuousClock.Instant
    /// When the whole request must be answered; upstream calls never run past it.
    let deadline: ContinuousClock.Instant
    private let state = Mutex(State())
    /// When a traced request arrived on the wall clock, in nanoseconds since the Unix epoch; 0
    /// while the request is not traced.
    private let tracedSince = Atomic<UInt64>(0)

    private struct State {
        var route: RouteMetrics?
        var upstreamCalls: [UpstreamCallRecord] = []
        var degraded: [String] = []
        var rateLimitFields: RateLimitFields?
        /// Retries by the `traceparent` of their call, until the call is recorded.
        var retries: [String: Int] = [:]
        /// A traced request's calls' methods and targets by `traceparent`, until the call is recorded.
        var spanNotes: [String: CallSpanNote] = [:]
    }

    init(requestID: String, trace: TraceContext, start: ContinuousClock.Instant, deadline: ContinuousClock.Instant) {
        self.requestID = requestID
        self.trace = trace
        self.start = start
        self.deadline = deadline
    }

    /// The metrics of the route that matched, or nil when none did.
    var route: RouteMetrics? {
        get { state.withLock { $0.route } }
        set { state.withLock { $0.route = newValue } }
    }

    var upstreamCalls: [UpstreamCallRecord] {
        state.withLock { $0.upstreamCalls }
    }

    /// The optional parts that failed, for the access log; set by a combined endpoint's route.
    var degraded: [String] {
        get { state.withLock { $0.degraded } }
        set { state.withLock { $0.degraded = newValue } }
    }

    /// The `RateLimit` fields of the answer, set by a route's rate limit.
    var rateLimitFields: RateLimitFields? {
        get { state.withLock { $0.rateLimitFields } }
        set { state.withLock { $0.rateLimitFields = newValue } }
    }

    /// Whether the request's spans are exported, so its calls keep what their spans say (`noteCall`).
    var tracesCalls: Bool { tracedSince.load(ordering: .relaxed) != 0 }

    /// The wall-clock time the request arrived, when it is traced (`RequestTracing.begin`); 0 otherwise.
    var tracedStart: UInt64 {
        get { tracedSince.load(ordering: .relaxed) }
        set { tracedSince.store(newValue, ordering: .relaxed) }
    }

    /// Keeps the method and target of the call that sends `traceParent`, for its client span.
    func noteCall(traceParent: String, method: HTTPMethod, target: String) {
        state.withLock { $0.spanNotes[traceParent] = CallSpanNote(method: method, target: target) }
    }

    /// The methods and targets of a traced request's calls, by the `traceparent` each sent.
    var spanNotes: [String: CallSpanNote] { state.withLock { $0.spanNotes } }

    /// Records a finished call, adding to its attempts the retries of the call (by the `traceparent` it sent).
    func record(_ call: UpstreamCallRecord) {
        state.withLock { state in
            var call = call
            if !state.retries.isEmpty, let retries = state.retries.removeValue(forKey: call.traceParent) { call.attempts += retries }
            // Room for a combined endpoint's few calls at once: grown one by one, the records
            // would be copied into a new allocation at the second call and again at the third.
            if state.upstreamCalls.isEmpty { state.upstreamCalls.reserveCapacity(4) }
            state.upstreamCalls.append(call)
        }
    }

    func retrying(_ request: TransportRequest) {
        let traceParent = request.headers[TraceParent.headerName] ?? ""
        state.withLock { $0.retries[traceParent, default: 0] += 1 }
    }
}

extension RequestScope {
    /// A scope for `request` starting now: the client's id when sane, else a new one, and its
    /// trace when its trace context is valid, else a new one.
    convenience init(request: HTTPRequest, deadline: Duration) {
        let start = ContinuousClock.now
        self.init(
            requestID: RequestID.resolve(request.headers[RequestID.headerName]),
            trace: TraceContext(of: request.headers),
            start: start,
            deadline: start.advanced(by: deadline))
    }
}
