import Glibc
import HTTPServerCore
import Upstream
import NetworkRuntime

/// The responder's part in tracing: turns each sampled request into its spans
/// (`RequestSpans`) and hands them to the exporter's queue, which never makes a request wait.
///
/// A class, so the responder that holds it stays one word larger; its two steps are never
/// inlined, so that the responder's async frame does not grow by what they hold.
final class RequestTracing: Sendable {
    let exporter: SpanExporter
    /// `url.scheme` of the requests served: https when the gateway terminates TLS.
    let scheme: String
    /// Each upstream's base URL by name, for the client spans' `server.*` and `url.full`.
    let baseURLs: [String: BaseURL]

    init(exporter: SpanExporter, scheme: String, baseURLs: [String: BaseURL]) {
        self.exporter = exporter
        self.scheme = scheme
        self.baseURLs = baseURLs
    }

    /// Marks `scope` traced, with its arrival on the wall clock, when the sampler takes its trace.
    @inline(never)
    func begin(_ scope: RequestScope) {
        if exporter.samples(scope.trace) { scope.tracedStart = Self.wallClockNanoseconds() }
    }

    /// Queues the spans of `request` when `begin` marked it traced: answered `response` after
    /// `duration`, by the route `scope` names unless that is the CORS preflights' (`preflights`).
    @inline(never)
    func end(request: HTTPRequest, preflights: RouteMetrics?, response: HTTPResponse, duration: Duration, scope: RequestScope) {
        let status = response.status.code
        let wallStart = scope.tracedStart
        guard wallStart != 0 else { return }
        let matched = scope.route.flatMap { $0 === preflights ? nil : $0.route }
        let served = RequestSpans.Served(
            method: request.method.rawValue, path: request.path, scheme: scheme, route: matched,
            clientAddress: request.clientAddress?.description, userAgent: request.headers["User-Agent"], status: status,
            rateLimited: status == 429 && scope.rateLimitFields != nil,
            // A combined answer the gateway kept (`CombinedAnswers`) is served without a call.
            answeredFromCache: scope.upstreamCalls.isEmpty && response.headers["Cache-Status"]?.contains("; hit") == true,
            startNanoseconds: wallStart, duration: duration)
        exporter.enqueue(
            RequestSpans.spans(
                of: served, spanID: IdentifierSource.nextNonZero(), trace: scope.trace, calls: scope.upstreamCalls, notes: scope.spanNotes, degraded: scope.degraded,
                baseURLs: baseURLs))
    }

    /// Now on the wall clock, in nanoseconds since the Unix epoch, as spans' times are written.
    static func wallClockNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
