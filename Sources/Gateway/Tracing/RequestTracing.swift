import Glibc
import HTTPServerCore
import Upstream

/// The responder's part in tracing: turns each sampled request into its spans
/// (`RequestSpans`) and hands them to the exporter's queue, which never makes a request wait.
struct RequestTracing: Sendable {
    let exporter: SpanExporter
    /// `url.scheme` of the requests served: https when the gateway terminates TLS.
    let scheme: String
    /// Each upstream's base URL by name, for the client spans' `server.*` and `url.full`.
    let baseURLs: [String: BaseURL]

    /// Queues the spans of `request`, answered `status` after `duration`; `matched` is the route's
    /// template, nil when no route matched.
    func record(request: HTTPRequest, matched: String?, status: Int, wallStart: UInt64, duration: Duration, scope: RequestScope) {
        let served = RequestSpans.Served(
            method: request.method.rawValue, path: request.path, scheme: scheme, route: matched,
            clientAddress: request.clientAddress?.description, userAgent: request.headers["User-Agent"], status: status,
            rateLimited: status == 429 && scope.rateLimitFields != nil, startNanoseconds: wallStart, start: scope.start, duration: duration)
        exporter.enqueue(
            RequestSpans.spans(
                of: served, spanID: IdentifierSource.nextNonZero(), trace: scope.trace, calls: scope.upstreamCalls, degraded: scope.degraded,
                baseURLs: baseURLs))
    }

    /// Now on the wall clock, in nanoseconds since the Unix epoch, as spans' times are written.
    static func wallClockNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
