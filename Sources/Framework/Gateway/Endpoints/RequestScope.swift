import HTTP1Server
import Synchronization
import UpstreamKit

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
        /// The attempts of calls sent again, by the `traceparent` of their first attempt until
        /// the call is recorded, then, for a traced request's spans, by that of their last.
        var retried: [String: EarlierAttempts] = [:]
        /// A traced request's calls' methods and targets by the `traceparent` of their first
        /// attempt until the call is recorded, then by that of their last.
        var spanNotes: [String: CallSpanNote] = [:]
        /// A traced request's span events (a token refresh) by the `traceparent` of the attempt they happened in.
        var spanEvents: [String: [SpanEvent]] = [:]
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

    /// The wall-clock time the request arrived, when it is traced (`RequestTracing.sample`); 0 otherwise.
    var tracedStart: UInt64 {
        get { tracedSince.load(ordering: .relaxed) }
        set { tracedSince.store(newValue, ordering: .relaxed) }
    }

    /// Keeps the method and URL of the call whose first attempt sends `traceParent`, for its client spans.
    func noteCall(traceParent: String, _ note: CallSpanNote) {
        state.withLock { $0.spanNotes[traceParent] = note }
    }

    /// What a traced request's client spans are made of: its calls, their methods, URLs and
    /// earlier attempts, and the events of their attempts.
    var callTraces: RequestSpans.Calls {
        state.withLock { RequestSpans.Calls(records: $0.upstreamCalls, notes: $0.spanNotes, earlierAttempts: $0.retried, events: $0.spanEvents) }
    }

    /// Records a finished call, adding to its attempts the retries of the call (by the
    /// `traceparent` its first attempt sent), and naming it by its last attempt's.
    func record(_ call: UpstreamCallRecord) {
        let traced = tracesCalls
        state.withLock { state in
            var call = call
            if !state.retried.isEmpty, let retried = state.retried.removeValue(forKey: call.traceParent) {
                call.attempts += retried.attempts.count
                if traced {
                    if let note = state.spanNotes.removeValue(forKey: call.traceParent) { state.spanNotes[retried.latest] = note }
                    state.retried[retried.latest] = retried
                }
                call.traceParent = retried.latest
            }
            // Room for a combined endpoint's few calls at once: grown one by one, the records
            // would be copied into a new allocation at the second call and again at the third.
            if state.upstreamCalls.isEmpty { state.upstreamCalls.reserveCapacity(4) }
            state.upstreamCalls.append(call)
        }
    }

    /// Counts the retry, and gives the next attempt a `traceparent` of its own: each attempt is a
    /// span of the trace, whose id is the parent id that attempt sent.
    func retrying(_ request: inout TransportRequest, after attempt: RetriedAttempt) {
        let sent = request.headers[TraceParent.headerName] ?? ""
        let next = trace.traceParentForCall()
        let failed = EarlierAttempts.Attempt(
            traceParent: sent, startOffset: start.duration(to: attempt.start), duration: attempt.start.duration(to: attempt.end),
            outcome: attempt.outcome.upstreamOutcome, status: attempt.outcome.status)
        let now = ContinuousClock.now
        state.withLock { state in
            // Keyed by the call's first attempt; a call retried before is found by its latest.
            let first = state.retried.first { $0.value.latest == sent }?.key ?? sent
            var call = state.retried[first] ?? EarlierAttempts(latest: sent)
            call.attempts.append(failed)
            call.latest = next
            call.latestStartOffset = start.duration(to: now)
            state.retried[first] = call
        }
        request.headers.set(TraceParent.headerName, next)
    }

    /// A traced request's attempt span gets an event of the renewal: how, and whether it failed.
    func renewedCredentials(during request: TransportRequest, _ renewal: CredentialRenewal) {
        guard tracesCalls, let traceParent = request.headers[TraceParent.headerName] else { return }
        var attributes = [SpanAttribute("gateway.credentials.source", renewal.source.rawValue)]
        if let failure = renewal.failure { attributes.append(SpanAttribute("error.type", UpstreamOutcome(failure).label)) }
        let event = SpanEvent(name: "gateway.credentials.renewed", timeNanoseconds: RequestTracing.wallClockNanoseconds(), attributes: attributes)
        state.withLock { $0.spanEvents[traceParent, default: []].append(event) }
    }
}

extension Result<Response, UpstreamError> {
    /// How an attempt that is retried ended, as its span says.
    fileprivate var upstreamOutcome: UpstreamOutcome {
        switch self {
        case .success(let response): UpstreamOutcome(answered: response.status)
        case .failure(let error): UpstreamOutcome(error)
        }
    }

    /// The status of the answer, when there was one.
    fileprivate var status: Int? {
        switch self {
        case .success(let response): response.status.code
        case .failure(.status(let status, _)): status.code
        case .failure: nil
        }
    }
}

extension RequestScope {
    /// A scope for `request` starting now: the client's id when sane, else a new one, and its
    /// trace when its trace context is valid, else a new one; with `tracing`, the trace is
    /// sampled now, so that its calls' `traceparent` carry the decision.
    convenience init(request: HTTPRequest, deadline: Duration, tracing: RequestTracing?) {
        let start = ContinuousClock.now
        var trace = TraceContext(of: request.headers)
        // Tracing off costs a test; a traced request's state lives in the scope.
        let tracedStart = tracing?.sample(&trace) ?? 0
        self.init(
            requestID: RequestID.resolve(request.headers[RequestID.headerName]),
            trace: trace,
            start: start,
            deadline: start.advanced(by: deadline))
        if tracedStart != 0 { self.tracedStart = tracedStart }
    }
}
