import UpstreamKit

/// All the gateway's metrics, rendered as Prometheus text for `GET /metrics`.
struct GatewayMetrics: Sendable {
    /// Every route's metrics, in the order they are rendered; the last is for requests no route matched.
    let routes: [RouteMetrics]
    let upstreams: [UpstreamMetrics]
    /// The shared cache of upstream answers, when it is on.
    let cache: ResponseCache?
    /// The endpoints file's endpoints, whose template references may find no field.
    let missingFields: [MissingFieldLog]
    /// Requests refused for their token, when the gateway checks tokens.
    var authentication: AuthenticationMetrics? = nil
    /// Sign-ins, refreshes and sessions, when browsers sign in.
    var sessions: BrowserSessionMetrics? = nil
    /// The Redis shared by the replicas, when configured.
    var redis: RedisSharing? = nil
    /// Decisions of the routes' rate limits, and the callers held.
    var rateLimits: RateLimits? = nil
    /// Answers gzipped for clients, when compression is on.
    var compression: CompressionMetrics? = nil
    /// Reloads by outcome and the last good one.
    var reloads: ReloadMetrics? = nil
    /// WebSockets through proxy routes, when the catalog has proxy routes.
    var webSockets: WebSocketMetrics? = nil
    /// The span export, when tracing is on.
    var spanExporter: SpanExporter? = nil
    /// Open client connections, requests being handled, requests refused before routing, and
    /// connections refused or reclaimed at a connection cap, read from the server when rendering.
    let gauges: @Sendable () -> (
        openConnections: Int, inFlightRequests: Int, rejectedRequests: Int, refusedConnections: Int, reclaimedConnections: Int
    )

    func render() -> String {
        var text = ""
        text.reserveCapacity(16 * 1024)
        PrometheusText.header("gateway_requests_total", type: "counter", help: "Requests answered, by route and status.", into: &text)
        for route in routes { route.renderRequests(into: &text) }
        PrometheusText.header(
            "gateway_request_duration_seconds", type: "histogram", help: "Time to answer a request, by route.", into: &text)
        for route in routes { route.renderLatency(into: &text) }
        PrometheusText.header(
            "gateway_degraded_parts_total", type: "counter",
            help: "Optional parts that failed in answers otherwise complete (listed in degraded), by route and part.", into: &text)
        for route in routes { route.renderDegraded(into: &text) }
        PrometheusText.header(
            "gateway_upstream_calls_total", type: "counter", help: "Calls to upstreams, by upstream and outcome.", into: &text)
        for upstream in upstreams { upstream.renderCalls(into: &text) }
        PrometheusText.header(
            "gateway_upstream_call_duration_seconds", type: "histogram", help: "Duration of upstream calls, by upstream.", into: &text)
        for upstream in upstreams { upstream.renderLatency(into: &text) }
        PrometheusText.header(
            "gateway_upstream_circuit_open", type: "gauge",
            help: "Whether the upstream's circuit breaker refuses calls now (1) or lets them through (0), by upstream.", into: &text)
        for upstream in upstreams { upstream.renderCircuit(into: &text) }
        if let cache { renderCache(cache, into: &text) }
        PrometheusText.header(
            "gateway_template_missing_fields_total", type: "counter",
            help: "References of an endpoints-file template that found no field in their call's answer, by route and reference.",
            into: &text)
        for endpoint in missingFields {
            for (reference, count) in endpoint.totals {
                text += Self.templateCount("gateway_template_missing_fields_total", route: endpoint.route, ("reference", reference), count)
            }
        }
        PrometheusText.header(
            "gateway_template_expression_failures_total", type: "counter",
            help: "JMESPath expressions of an endpoints-file response that failed at run time (a 502), by route and member.",
            into: &text)
        for endpoint in missingFields {
            for (member, count) in endpoint.expressionFailureTotals {
                text += Self.templateCount("gateway_template_expression_failures_total", route: endpoint.route, ("member", member), count)
            }
        }
        authentication?.render(into: &text)
        sessions?.render(into: &text)
        redis?.render(into: &text)
        rateLimits?.render(into: &text)
        compression?.render(into: &text)
        reloads?.render(into: &text)
        webSockets?.render(into: &text)
        spanExporter?.render(into: &text)
        let (openConnections, inFlightRequests, rejectedRequests, refusedConnections, reclaimedConnections) = gauges()
        PrometheusText.header("gateway_open_connections", type: "gauge", help: "Client connections open now.", into: &text)
        text += "gateway_open_connections \(openConnections)\n"
        PrometheusText.header("gateway_in_flight_requests", type: "gauge", help: "Requests being handled now.", into: &text)
        text += "gateway_in_flight_requests \(inFlightRequests)\n"
        PrometheusText.header(
            "gateway_rejected_requests_total", type: "counter",
            help: "Requests refused before routing: malformed, too large, bad Host, unsupported version.", into: &text)
        text += "gateway_rejected_requests_total \(rejectedRequests)\n"
        PrometheusText.header(
            "gateway_refused_connections_total", type: "counter",
            help: "Connections answered 503 at MAX_CONNECTIONS or MAX_CONNECTIONS_PER_CLIENT, none being kept alive to give way.",
            into: &text)
        text += "gateway_refused_connections_total \(refusedConnections)\n"
        PrometheusText.header(
            "gateway_reclaimed_connections_total", type: "counter",
            help: "Kept-alive connections closed to make room for a new one at MAX_CONNECTIONS or MAX_CONNECTIONS_PER_CLIENT.",
            into: &text)
        text += "gateway_reclaimed_connections_total \(reclaimedConnections)\n"
        return text
    }

    private func renderCache(_ cache: ResponseCache, into text: inout String) {
        PrometheusText.header(
            "gateway_upstream_cache_lookups_total", type: "counter",
            help: "Upstream calls the shared cache answered, by upstream and result: hit, stale (served while refreshing), "
                + "stale-if-error, revalidated (304), refreshed (200 to a revalidation), miss.",
            into: &text)
        for upstream in upstreams { upstream.renderCacheLookups(into: &text) }
        PrometheusText.header(
            "gateway_upstream_cache_coalesced_total", type: "counter",
            help: "Upstream calls answered by a concurrent identical call's request.", into: &text)
        for upstream in upstreams { upstream.renderCoalesced(into: &text) }
        let usage = upstreams.map { cache.usage(of: $0.name) }
        PrometheusText.header(
            "gateway_upstream_cache_evictions_total", type: "counter", help: "Stored answers evicted to make room, by upstream.",
            into: &text)
        for (upstream, usage) in zip(upstreams, usage) {
            text += "gateway_upstream_cache_evictions_total{upstream=\"\(PrometheusText.escape(upstream.name))\"} \(usage.evictions)\n"
        }
        PrometheusText.header(
            "gateway_upstream_cache_bytes", type: "gauge", help: "Memory held by stored answers, by upstream.", into: &text)
        for (upstream, usage) in zip(upstreams, usage) {
            text += "gateway_upstream_cache_bytes{upstream=\"\(PrometheusText.escape(upstream.name))\"} \(usage.bytes)\n"
        }
        PrometheusText.header(
            "gateway_cache_limit_bytes", type: "gauge", help: "The memory the shared cache may hold (CACHE_MAX_BYTES).", into: &text)
        text += "gateway_cache_limit_bytes \(cache.maximumBytes)\n"
    }

    /// One sample of a counter about an endpoints-file route's template, labelled by route and `label`.
    private static func templateCount(_ name: String, route: String, _ label: (name: String, value: String), _ count: Int) -> String {
        "\(name){route=\"\(PrometheusText.escape(route))\",\(label.name)=\"\(PrometheusText.escape(label.value))\"} \(count)\n"
    }
}
