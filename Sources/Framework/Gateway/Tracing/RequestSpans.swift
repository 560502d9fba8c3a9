import HTTPBasics
import UpstreamKit

/// The spans of one finished request, by the OpenTelemetry semantic conventions for HTTP
/// (stable): a server span for the request, and a client span for each attempt of each upstream call, its children, with what only the gateway
/// knows (the cache's part, a degraded optional part, an open circuit, a rate-limit refusal) as
/// `gateway.*` attributes, and a token refresh as an event.
///
/// Pure: everything comes in the arguments, the clock's readings included.
enum RequestSpans {
    /// What the server span says about the request and its answer.
    struct Served: Sendable {
        var method: String
        var path: String
        var scheme: String
        /// The matched route's template; nil when no route matched.
        var route: String?
        var clientAddress: String?
        var userAgent: String?
        var status: Int
        /// Whether the gateway refused the request by a rate limit.
        var rateLimited: Bool
        /// Whether the answer was a combined answer the gateway kept, made without any call.
        var answeredFromCache = false
        /// Wall-clock time of the request's arrival, in nanoseconds since the Unix epoch, from
        /// which the calls' start offsets count.
        var startNanoseconds: UInt64
        /// Up to the answer's end: its last byte for a streamed answer.
        var duration: Duration
        /// The bytes of a streamed answer's body, counted as they went; nil for an answer sent whole.
        var streamedBytes: Int?
    }

    /// What a traced request's scope kept of its calls for their client spans: the calls'
    /// records, and by the `traceparent` of each call's last attempt, its method and URL and the
    /// attempts before it; the events of each attempt by the `traceparent` it sent.
    struct Calls: Sendable {
        var records: [UpstreamCallRecord] = []
        var notes: [String: CallSpanNote] = [:]
        var earlierAttempts: [String: EarlierAttempts] = [:]
        var events: [String: [SpanEvent]] = [:]
    }

    /// The server span with id `spanID`, then the client spans of `calls`, one per attempt (a
    /// call answered without one, from the cache or refused by an open circuit, has one too),
    /// in the trace `trace`.
    static func spans(of served: Served, spanID: UInt64, trace: TraceContext, calls: Calls, degraded: [String]) -> [Span] {
        var attributes = [
            SpanAttribute("http.request.method", served.method), SpanAttribute("url.path", served.path),
            SpanAttribute("url.scheme", served.scheme), SpanAttribute("http.response.status_code", served.status),
        ]
        if let route = served.route { attributes.append(SpanAttribute("http.route", route)) }
        if let clientAddress = served.clientAddress { attributes.append(SpanAttribute("client.address", clientAddress)) }
        if let userAgent = served.userAgent { attributes.append(SpanAttribute("user_agent.original", userAgent)) }
        if served.status >= 500 { attributes.append(SpanAttribute("error.type", String(served.status))) }
        if !degraded.isEmpty { attributes.append(SpanAttribute("gateway.degraded_parts", degraded.joined(separator: ","))) }
        if served.rateLimited { attributes.append(SpanAttribute("gateway.rate_limited", true)) }
        if served.answeredFromCache { attributes.append(SpanAttribute("gateway.cache.outcome", "hit")) }
        if let bytes = served.streamedBytes { attributes.append(SpanAttribute("http.response.body.size", bytes)) }
        let server = Span(
            traceID: trace.traceID, spanID: spanID, parentSpanID: trace.parentID, flags: trace.flags, parentIsRemote: trace.parentID != 0,
            // The route's template, never the raw path, which would make a name per id.
            name: served.route.map { "\(served.method) \($0)" } ?? served.method, kind: .server,
            startNanoseconds: served.startNanoseconds, endNanoseconds: served.startNanoseconds + nanoseconds(served.duration),
            attributes: attributes, events: [],
            // A 4xx is the client's doing: an error of the server span only from 500 up.
            status: served.status >= 500 ? .error(description: "") : .unset)
        var spans = [server]
        for call in calls.records {
            let note = calls.notes[call.traceParent]
            let earlier = calls.earlierAttempts[call.traceParent]
            for (index, attempt) in (earlier?.attempts ?? []).enumerated() {
                spans.append(
                    clientSpan(
                        attempt: attempt, resendCount: index, of: call, note: note, last: nil, events: calls.events[attempt.traceParent] ?? [],
                        parent: server))
            }
            // The last attempt runs from its start to the call's end.
            let startOffset = earlier?.latestStartOffset ?? call.startOffset
            let final = EarlierAttempts.Attempt(
                traceParent: call.traceParent, startOffset: startOffset, duration: call.startOffset + call.duration - startOffset,
                outcome: call.outcome, status: call.status)
            spans.append(
                clientSpan(
                    attempt: final, resendCount: max(0, call.attempts - 1), of: call, note: note, last: (call.cache, degraded.contains(call.call)),
                    events: calls.events[call.traceParent] ?? [], parent: server))
        }
        return spans
    }

    /// The span of `attempt` at `call`, sent after `resendCount` others (`http.request.resend_count`
    /// from the second on); `last`, for the call's last attempt, what the call's outcome adds: the
    /// cache's part and whether it is a degraded optional part.
    private static func clientSpan(
        attempt: EarlierAttempts.Attempt, resendCount: Int, of call: UpstreamCallRecord, note: CallSpanNote?,
        last: (cache: CacheStatus?, degraded: Bool)?, events: [SpanEvent], parent server: Span
    ) -> Span {
        let method = note?.method.rawValue ?? "_OTHER"
        // Sized once: grown one by one, the array would be copied several times per span.
        var attributes: [SpanAttribute] = []
        attributes.reserveCapacity(12)
        attributes.append(SpanAttribute("http.request.method", method))
        if let note {
            attributes.append(SpanAttribute("server.address", note.origin.host))
            attributes.append(SpanAttribute("server.port", note.origin.port))
            // A refused link was never sent, and may hold what the gateway would not send.
            if let url = note.url, call.outcome != .refusedLink { attributes.append(SpanAttribute("url.full", url)) }
        }
        if let status = attempt.status { attributes.append(SpanAttribute("http.response.status_code", status)) }
        if resendCount > 0 { attributes.append(SpanAttribute("http.request.resend_count", resendCount)) }
        attributes.append(SpanAttribute("gateway.upstream", call.upstream))
        attributes.append(SpanAttribute("gateway.call", call.call))
        attributes.append(SpanAttribute("gateway.upstream.outcome", attempt.outcome.label))
        if let cache = last?.cache, let outcome = cacheOutcome(cache) { attributes.append(SpanAttribute("gateway.cache.outcome", outcome)) }
        if last?.degraded == true { attributes.append(SpanAttribute("gateway.degraded", true)) }
        let failed = attempt.outcome != .success && attempt.outcome != .clientError || (attempt.status ?? 0) >= 400
        if failed { attributes.append(SpanAttribute("error.type", attempt.status.map { String($0) } ?? attempt.outcome.label)) }
        let start = server.startNanoseconds + nanoseconds(attempt.startOffset)
        return Span(
            traceID: server.traceID, spanID: TraceParent.parentID(of: attempt.traceParent), parentSpanID: server.spanID, flags: server.flags,
            parentIsRemote: false, name: method, kind: .client, startNanoseconds: start, endNanoseconds: start + nanoseconds(attempt.duration),
            attributes: attributes, events: events, status: failed ? .error(description: "") : .unset)
    }

    /// The `gateway.cache.outcome` of a call through the cache; nil when the cache was not used.
    static func cacheOutcome(_ cache: CacheStatus) -> String? {
        if cache.collapsed { return "coalesced" }
        switch cache.outcome {
        case .hit: return "hit"
        case .staleWhileRevalidate, .staleIfError: return "stale"
        case .revalidated: return "revalidated"
        case .refreshed: return "refreshed"
        case .miss: return "miss"
        case .bypass: return nil
        }
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return seconds < 0 ? 0 : UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
