import HTTP1
import HTTP1Server
import HTTPBasics
import UpstreamKit

/// The outermost responder: gives every request its scope (id, trace context, deadline), answers
/// CORS preflights or runs the router inside it, adds the CORS fields, echoes `X-Request-ID`,
/// compresses the answer for a client that accepts gzip, and records metrics and the access log line.
struct GatewayResponder: HTTPResponder {
    let router: Router<RequestScope>
    /// The CORS step; nil when `CORS_ALLOWED_ORIGINS` is unset.
    let crossOrigin: CrossOrigin?
    /// Metrics for requests no route matched (404, 405, bad paths).
    let unmatched: RouteMetrics
    let requestDeadline: Duration
    /// Tells a request cut by the drain timeout from one its client left.
    let status: ServerStatus
    let accessLog: AccessLog
    /// Gzip for clients that accept it, and its counters; nil when `COMPRESSION=off`.
    var compression: (ResponseCompression, CompressionMetrics)? = nil
    /// The spans of sampled requests, when tracing is on.
    var spans: RequestTracing? = nil

    func streamsBody(of head: RequestHead) -> Bool {
        router.streamsBody(of: head)
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let scope = RequestScope(request: request, deadline: requestDeadline, tracing: spans)
        var response: HTTPResponse
        // A preflight is answered before any route's checks: it carries no token and is never limited.
        if let crossOrigin, let preflight = crossOrigin.preflightAnswer(to: request, router: router) {
            scope.route = crossOrigin.preflights
            response = preflight
        } else {
            response = await router.respond(to: request, context: scope)
            if response.status.code == HTTPStatus.clientClosedRequest.code, status.isCuttingRequests {
                response = GatewayProblem(.serviceUnavailable, "the gateway is shutting down; the request ran past the drain timeout")
                    .response(instance: request.path)
            }
            crossOrigin?.addFields(to: &response, for: request)
        }
        response.headers.set(RequestID.headerName, scope.requestID)
        scope.rateLimitFields?.add(to: &response.headers)
        if let (compression, metrics) = compression,
            let outcome = compression.apply(to: &response, answering: request, whenStreamEnds: { metrics.record($0) })
        {
            metrics.record(outcome)
        }
        let duration = scope.start.duration(to: .now)
        let route = scope.route ?? unmatched
        route.record(status: response.status.code, duration: duration)
        if let stream = response.bodyStream,
            let record = accessLog.recordingWhenStreamEnds(
                request: request, route: route.route, status: response.status.code, headDuration: duration, scope: scope)
        {
            response.bodyStream = stream.observingEnd(record)
        } else {
            accessLog.record(request: request, route: route.route, status: response.status.code, duration: duration, scope: scope)
        }
        spans?.end(request: request, preflights: crossOrigin?.preflights, response: &response, duration: duration, scope: scope)
        return response
    }
}
