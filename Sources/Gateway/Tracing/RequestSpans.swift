import HTTPBasics
import Upstream

/// The spans of one finished request, by the OpenTelemetry semantic conventions for HTTP
/// (stable): a server span for the request, and a client span for each upstream call, its child,
/// with what only the gateway knows (the cache's part, a degraded optional part, an open circuit,
/// a rate-limit refusal) as `gateway.*` attributes.
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
        var duration: Duration
    }

    /// The server span with id `spanID`, then the client spans of `calls`, in the trace `trace`;
    /// `notes` gives each call's method and target by the `traceparent` it sent.
    /// `baseURLs` gives each upstream's base URL by name, whose origin the client spans name.
    static func spans(
        of served: Served, spanID: UInt64, trace: TraceContext, calls: [UpstreamCallRecord], notes: [String: CallSpanNote], degraded: [String],
        baseURLs: [String: BaseURL]
    ) -> [Span] {
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
        let server = Span(
            traceID: trace.traceID, spanID: spanID, parentSpanID: trace.parentID, flags: trace.flags, parentIsRemote: trace.parentID != 0,
            // The route's template, never the raw path, which would make a name per id.
            name: served.route.map { "\(served.method) \($0)" } ?? served.method, kind: .server,
            startNanoseconds: served.startNanoseconds, endNanoseconds: served.startNanoseconds + nanoseconds(served.duration),
            attributes: attributes, events: [],
            // A 4xx is the client's doing: an error of the server span only from 500 up.
            status: served.status >= 500 ? .error(description: "") : .unset)
        return [server]
            + calls.map { call in
                clientSpan(of: call, note: notes[call.traceParent], parent: server, degraded: degraded, baseURL: baseURLs[call.upstream])
            }
    }

    private static func clientSpan(
        of call: UpstreamCallRecord, note: CallSpanNote?, parent server: Span, degraded: [String], baseURL: BaseURL?
    ) -> Span {
        let method = note?.method.rawValue ?? "_OTHER"
        var attributes = [SpanAttribute("http.request.method", method)]
        if let baseURL, let target = note?.target {
            attributes.append(SpanAttribute("server.address", baseURL.origin.host))
            attributes.append(SpanAttribute("server.port", baseURL.origin.port))
            // A path is below the base URL, which configuration keeps free of credentials and
            // query; a link comes without its query (`CallRecordStart.name(of:)`).
            attributes.append(SpanAttribute("url.full", target.hasPrefix("/") ? baseURL.description + target : target))
        }
        if let status = call.status { attributes.append(SpanAttribute("http.response.status_code", status)) }
        if call.attempts > 1 { attributes.append(SpanAttribute("http.request.resend_count", call.attempts - 1)) }
        attributes.append(SpanAttribute("gateway.upstream", call.upstream))
        attributes.append(SpanAttribute("gateway.call", call.call))
        attributes.append(SpanAttribute("gateway.upstream.outcome", call.outcome.label))
        if let cache = call.cache, let outcome = cacheOutcome(cache) { attributes.append(SpanAttribute("gateway.cache.outcome", outcome)) }
        if degraded.contains(call.call) { attributes.append(SpanAttribute("gateway.degraded", true)) }
        let failed = call.outcome != .success && call.outcome != .clientError || (call.status ?? 0) >= 400
        if failed { attributes.append(SpanAttribute("error.type", call.status.map { String($0) } ?? call.outcome.label)) }
        let start = server.startNanoseconds + nanoseconds(call.startOffset)
        return Span(
            traceID: server.traceID, spanID: TraceParent.parentID(of: call.traceParent), parentSpanID: server.spanID, flags: server.flags,
            parentIsRemote: false, name: method, kind: .client, startNanoseconds: start, endNanoseconds: start + nanoseconds(call.duration),
            attributes: attributes, events: [], status: failed ? .error(description: "") : .unset)
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
