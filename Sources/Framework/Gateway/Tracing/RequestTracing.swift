import Glibc
import HTTP1Server
import HTTPBasics
import NetworkRuntime
import UpstreamKit

/// The responder's part in tracing: turns each sampled request into its spans
/// (`RequestSpans`) and hands them to the exporter's queue, which never makes a request wait.
///
/// A class, so the responder that holds it stays one word larger; its two steps are never
/// inlined, so that the responder's async frame does not grow by what they hold.
final class RequestTracing: Sendable {
    let exporter: SpanExporter
    /// `url.scheme` of the requests served: https when the gateway terminates TLS.
    let scheme: String

    init(exporter: SpanExporter, scheme: String) {
        self.exporter = exporter
        self.scheme = scheme
    }

    /// Sets the sampled flag of `trace` as the sampler decides (a sampled-out request's calls
    /// send `-00`, a sampled one's `-01`), and returns the request's arrival on the wall clock
    /// when it is sampled, 0 when it is not.
    @inline(never)
    func sample(_ trace: inout TraceContext) -> UInt64 {
        let sampled = exporter.samples(trace)
        trace = trace.recording(sampled: sampled)
        return sampled ? Self.wallClockNanoseconds() : 0
    }

    /// Queues the spans of `request` when `sample` took its trace: answered `response` after
    /// `duration`, by the route `scope` names unless that is the CORS preflights' (`preflights`).
    /// A streamed answer's spans are queued when its body ends, the server span ending there too.
    @inline(never)
    func end(request: HTTPRequest, preflights: RouteMetrics?, response: inout HTTPResponse, duration: Duration, scope: RequestScope) {
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
        guard let stream = response.bodyStream else { return enqueue(served, scope: scope) }
        response.bodyStream = stream.observingEnd { [self, served] bytes, _ in
            var ended = served
            ended.duration = scope.start.duration(to: .now)
            ended.streamedBytes = bytes
            enqueue(ended, scope: scope)
        }
    }

    private func enqueue(_ served: RequestSpans.Served, scope: RequestScope) {
        exporter.enqueue(
            RequestSpans.spans(of: served, spanID: IdentifierSource.nextNonZero(), trace: scope.trace, calls: scope.callTraces, degraded: scope.degraded))
    }

    /// Now on the wall clock, in nanoseconds since the Unix epoch, as spans' times are written.
    static func wallClockNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
